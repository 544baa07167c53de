import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import {
  IterationDataError,
  iterationRows,
  POSTMAN_LIMITS,
  type FunctionalPlan,
  type IterationData,
  type PlanVariable,
} from '@aqa/plan';

/*
 * What `aqa test` reads beside a plan, as `newman run` does (docs/adr/0029-postman-collections.md):
 * `--environment FILE` and `--globals FILE` (Postman's export shape `{name, values: [{key, value,
 * enabled}]}`), `--data FILE` (CSV with a header row, or a JSON array of objects) and `--folder NAME`.
 * Each malformed file is refused naming what is wrong in it, before anything runs.
 */

export class PostmanFileError extends Error {
  override readonly name = 'PostmanFileError';
}

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new PostmanFileError(`cannot read ${what} ${file}: ${(e as Error).message}`, { cause: e });
  }
}

/** A Postman environment or globals export: its name and its enabled values, in order. */
export function readVariablesFile(
  file: string,
  what: 'environment' | 'globals',
): { name: string; values: PlanVariable[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(readText(file, what));
  } catch (e) {
    if (e instanceof PostmanFileError) throw e;
    throw new PostmanFileError(`${what} file ${file} is not JSON: ${(e as Error).message}`, { cause: e });
  }
  const shape = `a Postman ${what} export: {"name": …, "values": [{"key": …, "value": …, "enabled": true}]}`;
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as { values?: unknown }).values)) {
    throw new PostmanFileError(`${what} file ${file} is not ${shape}`);
  }
  const { name, values } = raw as { name?: unknown; values: unknown[] };
  if (values.length > POSTMAN_LIMITS.variables) {
    throw new PostmanFileError(
      `${what} file ${file} has ${values.length} values; at most ${POSTMAN_LIMITS.variables} are read`,
    );
  }
  const kept: PlanVariable[] = [];
  values.forEach((entry, i) => {
    const at = `${what} file ${file}: values[${i}]`;
    if (typeof entry !== 'object' || entry === null) throw new PostmanFileError(`${at} is not an object`);
    const { key, value, enabled } = entry as { key?: unknown; value?: unknown; enabled?: unknown };
    if (typeof key !== 'string' || key.trim() === '') throw new PostmanFileError(`${at} has no "key"`);
    if (/[{}\r\n]/.test(key))
      throw new PostmanFileError(`${at}: the key ${JSON.stringify(key)} holds { } or a line break`);
    // Newman leaves out a value whose "enabled" is false.
    if (enabled === false) return;
    const text =
      value === undefined || value === null
        ? ''
        : typeof value === 'string'
          ? value
          : // A number, a boolean or an object: as its JSON text.
            JSON.stringify(value);
    kept.push({ name: key.trim(), value: text });
  });
  return { name: typeof name === 'string' ? name : basename(file, extname(file)), values: kept };
}

/** A data file for the iterations: CSV by a .csv name, JSON by .json, else by whether it opens with `[`. */
export function readDataFile(file: string): IterationData {
  const text = readText(file, 'data file');
  const extension = extname(file).toLowerCase();
  const format =
    extension === '.csv' ? 'csv' : extension === '.json' || text.trimStart().startsWith('[') ? 'json' : 'csv';
  const data: IterationData = { name: basename(file), format, text };
  if (Buffer.byteLength(text) > POSTMAN_LIMITS.iterationDataBytes) {
    throw new PostmanFileError(
      `data file ${file} is larger than ${POSTMAN_LIMITS.iterationDataBytes / 1024 / 1024} MB`,
    );
  }
  try {
    iterationRows(data);
  } catch (e) {
    if (e instanceof IterationDataError) throw new PostmanFileError(e.message, { cause: e });
    throw e;
  }
  return data;
}

/** Every folder of a plan: each API's group and the folders it is under ("Orders", "Orders / Admin"). */
export function planFolders(plan: Pick<FunctionalPlan, 'apis'>): string[] {
  const folders: string[] = [];
  for (const api of plan.apis) {
    const names = (api.group ?? '').split(' / ').map((n) => n.trim());
    if (names[0] === '') continue;
    for (let depth = 1; depth <= names.length; depth++) {
      const folder = names.slice(0, depth).join(' / ');
      if (!folders.includes(folder)) folders.push(folder);
    }
  }
  return folders;
}

/**
 * The plan with only the APIs in folder `name` or under it (Newman's `--folder`); an unknown folder is
 * refused naming the folders there are.
 */
export function onlyFolder(plan: FunctionalPlan, name: string, file: string): FunctionalPlan {
  const folder = name.trim();
  const inFolder = (group: string | undefined): boolean => {
    const g = (group ?? '')
      .split(' / ')
      .map((n) => n.trim())
      .join(' / ');
    return g === folder || g.startsWith(`${folder} / `);
  };
  const apis = plan.apis.filter((api) => inFolder(api.group));
  if (apis.length === 0) {
    const folders = planFolders(plan);
    throw new PostmanFileError(
      folders.length === 0
        ? `${file} has no folders; --folder ${JSON.stringify(name)} cannot be run`
        : `${file} has no folder ${JSON.stringify(name)}; its folders are: ${folders.map((f) => JSON.stringify(f)).join(', ')}`,
    );
  }
  return { ...plan, apis };
}
