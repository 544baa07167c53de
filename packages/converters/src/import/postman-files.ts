import {
  type IterationData,
  type IterationRow,
  readIterationData,
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
  rows: IterationRow[];
}

/**
 * A data file as Newman's `-d` reads it: a JSON array of objects, or CSV whose first line names the
 * columns. JSON is told by the name (`.json`) or by its first character (`[`). The rows are read by
 * the one reader the runner and the editor use too (@aqa/plan `readIterationData`).
 */
export function readPostmanDataFile(source: ImportSource): PostmanDataFile {
  const file = sourceName(source);
  const text = sourceText(source);
  if (text.length > POSTMAN_LIMITS.iterationDataBytes)
    throw new ImportError(
      file,
      `the data file is over the ${POSTMAN_LIMITS.iterationDataBytes / 1024 / 1024} MB a plan keeps`,
    );
  const json = /\.json$/i.test(file) || (!/\.csv$/i.test(file) && text.trimStart().startsWith('['));
  const name = (file.split(/[\\/]/).pop() ?? file).slice(0, 200);
  const data: IterationData = { name, format: json ? 'json' : 'csv', text };
  const read = readIterationData(data);
  if (read.problem !== undefined) {
    // The reader names the file itself; the import error names it once, before the problem.
    const own = `The data file ${name}`;
    const rest = read.problem.startsWith(own) ? read.problem.slice(own.length) : read.problem;
    throw new ImportError(file, rest.startsWith(': ') ? rest.slice(2) : `the data file${rest}`);
  }
  if (read.rows.length === 0) throw new ImportError(file, 'the data file has no rows');
  return { data, rows: read.rows };
}
