import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { ImportError, readPostmanDataFile, readPostmanEnvironment } from '@aqa/converters';
import type { FunctionalPlan, IterationData, PlanEnvironment } from '@aqa/plan';

/*
 * What `aqa test` reads beside a plan, as `newman run` does (docs/adr/0029-postman-collections.md):
 * `--environment FILE` and `--globals FILE` (Postman's export shape `{name, values: [{key, value,
 * enabled}]}`), `--data FILE` (CSV with a header row, or a JSON array of objects) and `--folder NAME`.
 * The files are read by the same readers as the import screen's (@aqa/converters), so a file the
 * screen takes the CLI takes too; each malformed one is refused naming what is wrong, before anything runs.
 */

export class PostmanFileError extends Error {
  override readonly name = 'PostmanFileError';
}

/** The file's bytes under its path, or a refusal naming it; a reader's refusal says what it read. */
function readWith<T>(
  file: string,
  what: string,
  read: (source: { name: string; bytes: Uint8Array }) => T,
): T {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new PostmanFileError(`cannot read ${what} ${file}: ${(e as Error).message}`, { cause: e });
  }
  try {
    return read({ name: file, bytes });
  } catch (e) {
    if (e instanceof ImportError)
      throw new PostmanFileError(e.problem.startsWith(`the ${what}`) ? e.message : `${what} ${e.message}`, {
        cause: e,
      });
    throw e;
  }
}

/** A Postman environment or globals export: its name and its enabled values, in order. */
export function readVariablesFile(file: string, what: 'environment' | 'globals'): PlanEnvironment {
  const environment = readWith(file, `${what} file`, (source) => readPostmanEnvironment(source).environment);
  // An export without a name is called by its file's, as Newman's report calls it.
  return environment.name === '' ? { ...environment, name: basename(file, extname(file)) } : environment;
}

/** A data file for the iterations: JSON by a .json name or a leading `[`, else CSV. */
export function readDataFile(file: string): IterationData {
  return readWith(file, 'data file', (source) => readPostmanDataFile(source).data);
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
