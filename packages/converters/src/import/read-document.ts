import { parseAllDocuments } from 'yaml';
import { decodeText, stripBom } from './decode-text';
import { ImportError, UNNAMED_FILE } from './import-model';

/** What an importer takes: the file's bytes or its text, and its name for messages. */
export interface ImportSource {
  /** The file name as uploaded; messages start with it. */
  name?: string | undefined;
  bytes?: Uint8Array | undefined;
  text?: string | undefined;
}

export function sourceName(source: ImportSource): string {
  return source.name?.trim() || UNNAMED_FILE;
}

/** The text of a source; an empty file is refused here, for every format. */
export function sourceText(source: ImportSource): string {
  const name = sourceName(source);
  let text: string;
  if (source.text !== undefined) text = stripBom(source.text);
  else if (source.bytes !== undefined) text = decodeText(source.bytes).text;
  else throw new ImportError(name, 'no file content was given');
  if (text.trim() === '') throw new ImportError(name, 'the file is empty');
  return text;
}

/**
 * JSON or YAML text → a value. JSON is tried first (it is much faster than a YAML parser on a large file);
 * text that is not JSON is read as YAML, and a file that is neither is refused with the line and column
 * of the first error.
 */
export function parseStructuredText(text: string, file: string): unknown {
  const trimmed = text.trimStart();
  let jsonError: unknown;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      jsonError = error;
    }
  }
  // JSON with comments or trailing commas is still YAML-readable in most cases; YAML is a superset of JSON.
  const docs = parseAllDocuments(text, { uniqueKeys: false, prettyErrors: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const first = list.find((doc) => doc.contents !== null) ?? list[0];
  if (jsonError !== undefined && (first === undefined || first.errors.length > 0)) {
    throw jsonImportError(text, file, jsonError);
  }
  if (first === undefined) throw new ImportError(file, 'the file is empty');
  const [error] = first.errors;
  if (error) {
    const where = error.linePos?.[0];
    const reason =
      error.message
        .split(/ at line \d+, column \d+/)[0]
        ?.split('\n')[0]
        ?.trim() ?? error.message;
    throw new ImportError(
      file,
      where
        ? `YAML syntax error at line ${where.line}, column ${where.col}: ${reason}`
        : `YAML syntax error: ${reason}`,
      { line: where?.line, column: where?.col, cause: error },
    );
  }
  const value: unknown = first.toJS({ maxAliasCount: 1000 });
  if (value === null || value === undefined) throw new ImportError(file, 'the file is empty');
  return value;
}

function jsonImportError(text: string, file: string, error: unknown): ImportError {
  const message = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(message);
  const lineCol = /line (\d+) column (\d+)/.exec(message);
  let line: number | undefined;
  let column: number | undefined;
  if (position) {
    const offset = Number(position[1]);
    const before = text.slice(0, offset);
    line = before.split('\n').length;
    column = offset - before.lastIndexOf('\n');
  } else if (lineCol) {
    line = Number(lineCol[1]);
    column = Number(lineCol[2]);
  }
  const reason = message
    .replace(/^JSON\.parse: /, '')
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/ at line \d+ column \d+ of the JSON data$/, '')
    .replace(/, ".*" is not valid JSON$/s, '');
  return new ImportError(
    file,
    line === undefined
      ? `JSON syntax error: ${reason}`
      : `JSON syntax error at line ${line}, column ${column}: ${reason}`,
    { line, column, cause: error },
  );
}

/** The text and parsed value of a structured (JSON or YAML) source. */
export function readStructured(source: ImportSource): { value: unknown; text: string; file: string } {
  const file = sourceName(source);
  const text = sourceText(source);
  return { value: parseStructuredText(text, file), text, file };
}
