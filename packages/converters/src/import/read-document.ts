import { type Document, parseAllDocuments } from 'yaml';
import { decodeText, stripBom } from './decode-text';
import { ImportError, UNNAMED_FILE } from './import-model';
import { MAX_NESTING, textNestsTooDeep, valueNestsTooDeep } from './nesting';

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
      return withinNesting(JSON.parse(text) as unknown, file);
    } catch (error) {
      if (error instanceof ImportError) throw error;
      jsonError = error;
    }
  }
  // Checked before the YAML parser, which would take seconds to run out of stack on such a document.
  if (textNestsTooDeep(text)) throw tooDeep(file, jsonError);
  // JSON with comments or trailing commas is still YAML-readable in most cases; YAML is a superset of JSON.
  let docs;
  try {
    docs = parseAllDocuments(text, { uniqueKeys: false, prettyErrors: true });
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(file, error);
    throw error;
  }
  const list = Array.isArray(docs) ? docs : [docs];
  const first = list.find((doc) => doc.contents !== null) ?? list[0];
  if (jsonError !== undefined && (first === undefined || first.errors.length > 0)) {
    throw jsonImportError(text, file, jsonError);
  }
  if (first === undefined) throw new ImportError(file, 'the file is empty');
  const [error] = first.errors;
  // The parser reports running out of stack on a deeply nested document as a syntax error of its own.
  if (error?.message.includes('Maximum call stack size exceeded')) throw tooDeep(file, error);
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
  const value = yamlValue(first, file);
  // An explicit null ("null", "~") is a value, which the caller words; only no content at all is empty.
  if (first.contents === null || value === undefined) throw new ImportError(file, 'the file is empty');
  return withinNesting(value, file);
}

/** The value, or an ImportError when it nests deeper than the importers may recurse. */
function withinNesting(value: unknown, file: string): unknown {
  if (valueNestsTooDeep(value)) throw tooDeep(file, undefined);
  return value;
}

/**
 * The value of a parsed YAML document. Resolving aliases is where YAML's own attacks land: an alias bomb
 * ("billion laughs") that expands to more nodes than maxAliasCount allows, and an alias to an anchor
 * that was never set, are ReferenceErrors of the yaml library; a document nested deeper than the stack
 * ends in a RangeError. Each is a document that cannot be imported, not a fault of the server.
 */
function yamlValue(doc: Document.Parsed, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(file, error);
    if (!(error instanceof ReferenceError)) throw error;
    const reason = /excessive alias count/i.test(error.message)
      ? `its aliases (*name) expand to more than ${MAX_ALIAS_COUNT} copies, which is how a YAML "alias bomb" exhausts a server; write the repeated parts out, or use fewer aliases`
      : `an alias refers to an anchor that is not set before it (${error.message.replace(/^.*?: /, '')})`;
    throw new ImportError(file, `YAML cannot be read: ${reason}`, { cause: error });
  }
}

/** The yaml library's own measure: an alias counts the nodes it expands to. */
const MAX_ALIAS_COUNT = 1000;

function tooDeep(file: string, cause: unknown): ImportError {
  return new ImportError(
    file,
    `the document is nested too deeply to read: lists or objects go more than ${MAX_NESTING} levels inside each other`,
    { cause },
  );
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
