import {
  type IterationData,
  type PlanEnvironment,
  type PlanVariable,
  PlanVariableSchema,
  POSTMAN_LIMITS,
} from '@aqa/plan';
import { asString, ImportError, isRecord } from './import-model';
import { type ImportSource, readStructured, sourceName, sourceText } from './read-document';

/*
 * The files a Postman collection runs with (docs/adr/0029-postman-collections.md): an environment or
 * globals file (as Postman exports them) and a data file (as Newman's `-d` reads it). Each is refused
 * with a message naming the file and the place that is wrong.
 */

export interface PostmanVariableFile {
  /** `globals` when the file says `_postman_variable_scope: "globals"` or is a bare list of values. */
  scope: 'environment' | 'globals';
  environment: PlanEnvironment;
}

/**
 * An environment (`{name, values: [{key, value, enabled}]}`) or globals file; disabled values are left
 * out, as Postman leaves them out of a run.
 */
export function readPostmanEnvironment(source: ImportSource): PostmanVariableFile {
  const file = sourceName(source);
  const { value } = readStructured(source);
  let list: unknown;
  let scope: PostmanVariableFile['scope'] = 'environment';
  let name = '';
  if (Array.isArray(value)) {
    list = value;
    scope = 'globals';
  } else if (isRecord(value)) {
    if (Array.isArray(value.item) || Array.isArray(value.requests))
      throw new ImportError(file, 'this is a Postman collection, not an environment');
    if (!Array.isArray(value.values))
      throw new ImportError(
        file,
        `this is not a Postman environment: it has no "values" list (its keys are ${Object.keys(value).slice(0, 8).join(', ') || 'none'})`,
      );
    list = value.values;
    if (asString(value._postman_variable_scope) === 'globals') scope = 'globals';
    name = asString(value.name)?.trim() ?? '';
  } else {
    throw new ImportError(file, 'this is not a Postman environment: it is not a JSON object');
  }
  const values: PlanVariable[] = [];
  const problems: string[] = [];
  (list as unknown[]).forEach((entry, index) => {
    const where = `values[${index}]`;
    if (!isRecord(entry)) {
      problems.push(`${where} is not an object with a key and a value`);
      return;
    }
    if (entry.enabled === false || entry.disabled === true) return;
    const key = asString(entry.key);
    if (key === undefined || key.trim() === '') {
      problems.push(`${where} has no key`);
      return;
    }
    const raw = entry.value;
    const text =
      raw === undefined || raw === null ? '' : typeof raw === 'object' ? JSON.stringify(raw) : asString(raw);
    const parsed = PlanVariableSchema.safeParse({ name: key, value: text ?? '' });
    if (parsed.success) values.push(parsed.data);
    else problems.push(`${where} (${key}): ${parsed.error.issues[0]?.message ?? 'not a variable'}`);
  });
  if (values.length > POSTMAN_LIMITS.variables)
    problems.push(
      `it holds ${values.length} variables, over the ${POSTMAN_LIMITS.variables} a scope may hold`,
    );
  if (problems.length > 0) throw new ImportError(file, problems.join('; '));
  return { scope, environment: { name: name.slice(0, 200), values } };
}

/** A data file read: what the plan keeps, and its rows (one iteration each). */
export interface PostmanDataFile {
  data: IterationData;
  rows: Record<string, unknown>[];
}

/**
 * A data file as Newman's `-d` reads it: a JSON array of objects, or CSV whose first line names the
 * columns. JSON is told by the name (`.json`) or by its first character (`[`).
 */
export function readIterationData(source: ImportSource): PostmanDataFile {
  const file = sourceName(source);
  const text = sourceText(source);
  if (text.length > POSTMAN_LIMITS.iterationDataBytes)
    throw new ImportError(
      file,
      `the data file is over the ${POSTMAN_LIMITS.iterationDataBytes / 1024 / 1024} MB a plan keeps`,
    );
  const json = /\.json$/i.test(file) || (!/\.csv$/i.test(file) && text.trimStart().startsWith('['));
  const rows = json ? jsonRows(source, file) : csvRows(text, file);
  if (rows.length === 0) throw new ImportError(file, 'the data file has no rows');
  const name = (file.split(/[\\/]/).pop() ?? file).slice(0, 200);
  return { data: { name, format: json ? 'json' : 'csv', text }, rows };
}

function jsonRows(source: ImportSource, file: string): Record<string, unknown>[] {
  const { value } = readStructured(source);
  if (!Array.isArray(value))
    throw new ImportError(file, 'a JSON data file must be an array of objects, one per iteration');
  value.forEach((row, index) => {
    if (!isRecord(row))
      throw new ImportError(
        file,
        `row ${index + 1} (index ${index}) is not an object of column names and values`,
      );
  });
  return value as Record<string, unknown>[];
}

/**
 * CSV as Newman reads it (csv-parse with `columns: true`): fields separated by commas, quoted with ",
 * "" inside quotes for one; every row as many fields as the header. Line breaks inside quotes are kept.
 */
function csvRows(text: string, file: string): Record<string, string>[] {
  const records: { fields: string[]; line: number }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let quoteLine = 1;
  let afterQuote = false;
  const endField = () => {
    fields.push(field);
    field = '';
    afterQuote = false;
  };
  const endRecord = () => {
    endField();
    if (!(fields.length === 1 && fields[0] === '')) records.push({ fields, line: recordLine });
    fields = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
          afterQuote = true;
        }
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"' && field === '' && !afterQuote) {
      quoted = true;
      quoteLine = line;
    } else if (ch === ',') endField();
    else if (ch === '\r' && text[i + 1] === '\n') continue;
    else if (ch === '\n' || ch === '\r') {
      endRecord();
      line++;
      recordLine = line;
    } else if (afterQuote) {
      throw new ImportError(
        file,
        `line ${line}: text after a closing quote (write "" for a quote inside a quoted field)`,
        { line },
      );
    } else field += ch;
  }
  if (quoted)
    throw new ImportError(file, `line ${quoteLine}: a quoted field is not closed`, { line: quoteLine });
  if (field !== '' || fields.length > 0) endRecord();
  const [header, ...rows] = records;
  if (header === undefined) throw new ImportError(file, 'the data file is empty');
  const columns = header.fields.map((c) => c.trim());
  columns.forEach((column, index) => {
    if (column === '') throw new ImportError(file, `line 1: column ${index + 1} has no name`, { line: 1 });
    if (columns.indexOf(column) !== index)
      throw new ImportError(file, `line 1: the column ${column} is named twice`, { line: 1 });
  });
  return rows.map(({ fields: values, line: at }, index) => {
    if (values.length !== columns.length)
      throw new ImportError(
        file,
        `line ${at} (row ${index + 1}): ${values.length} ${values.length === 1 ? 'field' : 'fields'} where the header names ${columns.length}`,
        { line: at },
      );
    return Object.fromEntries(columns.map((column, c) => [column, values[c] ?? '']));
  });
}
