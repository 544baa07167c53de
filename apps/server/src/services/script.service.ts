import { generateScript, scriptFileName, type ScriptSource, type ScriptWarning } from '@aqa/converters';
import { PLAN_ERRORS, type Tool } from '@aqa/plan';
import { ValidationError } from '../errors';

export interface Script {
  script: string;
  filename: string;
  /** What the tool cannot express, by plan field; shown to the user. */
  warnings: ScriptWarning[];
  tool: Tool;
}

/**
 * The script of a plan for a tool, from the generators the browser runs too (so the preview and
 * the server agree). Every generator writes one file: testplan_{tool}_{plan}.{ext}.
 */
export function scriptFor(source: ScriptSource, tool: Tool): Script {
  if (source.urls.length === 0) {
    throw new ValidationError([{ field: 'urls', message: PLAN_ERRORS.noApisToGenerate }], {
      code: 'NO_APIS',
    });
  }
  // Only the script is answered and saved: the test data's files beside it (up to 10 MB of rows) are
  // built where a run writes them, not on every save and preview.
  const { files, warnings } = generateScript(source, tool, { dataFiles: false });
  const [file] = files;
  if (file === undefined) throw new Error(`The ${tool} generator wrote no file`);
  return { script: file.content, filename: file.name || scriptFileName(tool, source.name), warnings, tool };
}

/**
 * Whether a script sent with a plan is the generator's own (ignoring line endings and trailing
 * white space, which editors and clipboards change) or was edited by hand.
 */
export function isGeneratedScript(sent: string, generated: string): boolean {
  const normal = (text: string) =>
    text.replace(/\r\n?/g, '\n').split('\n').map(trimLineEnd).join('\n').trimEnd();
  return normal(sent) === normal(generated);
}

/**
 * A line without its trailing spaces and tabs, read from its end: `/[ \t]+$/gm` tries each start in a
 * run of tabs, quadratic in a sent script's million characters (docs/adr/0022-linear-time-patterns.md).
 */
function trimLineEnd(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return line.slice(0, end);
}
