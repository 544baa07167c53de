import { contract } from '@aqa/contract';
import { readPostmanDataFile, readPostmanEnvironment } from '@aqa/converters';
import { ApiDefinitionSchema, FunctionalPlanSchema } from '@aqa/plan';
import { upload } from '@/lib/api';
import { collectionFormOf, type CollectionForm } from './collection-form';
import { apiFormOf, type FunctionalApiForm } from './functional-form';

/**
 * "Import APIs from file" (beyond docs/reference/02-running.md §2): the file goes to the file parse of §7
 * (POST /api/functional/parse-file, multipart, the format detected by the server) and its API list becomes
 * editor cards, with the validations the importer wrote (an OpenAPI document gives status_code and schema
 * rules). Each API is read by the model's ApiDefinitionSchema; one whose rules the model refuses keeps its
 * call without them, and one the model refuses outright is left out and counted.
 */

export interface ImportedApis {
  apis: FunctionalApiForm[];
  /** A Postman collection's variables, scripts, data file and options (docs/adr/0029-postman-collections.md). */
  collection?: CollectionForm;
  /** The collection's name, for a plan that has none yet. */
  testName?: string;
  /** A collection's pause between calls: none, as Newman runs (its --delay-request is 0). */
  thinkTime?: number;
  /** With a data file: its rows, the run's iterations (as Newman -d). */
  iterations?: number;
  /** How the collection's tests were carried. */
  tests?: {
    tests: number;
    rules: number;
    scripts: number;
    leftOut: { request: string; line: number; reason: string }[];
  };
  /** APIs of the file the model could not read. */
  skipped: number;
  /** The model's first problem with a left-out API, e.g. "API 3: Enter a full URL…". */
  firstProblem?: string;
}

function readImportedApis(raw: readonly unknown[]): ImportedApis {
  const apis: FunctionalApiForm[] = [];
  let skipped = 0;
  let firstProblem: string | undefined;
  for (const [index, item] of raw.entries()) {
    const whole = ApiDefinitionSchema.safeParse(item);
    const parsed =
      whole.success || typeof item !== 'object' || item === null
        ? whole
        : ApiDefinitionSchema.safeParse({ ...item, validations: [] });
    if (parsed.success) {
      apis.push(apiFormOf(parsed.data));
      continue;
    }
    skipped += 1;
    firstProblem ??= `${index + 1}: ${parsed.error.issues[0]?.message ?? ''}`;
  }
  return { apis, skipped, ...(firstProblem === undefined ? {} : { firstProblem }) };
}

/** What files were picked together: the file to import, and for a collection its environment and data file. */
export interface PickedFiles {
  file: File;
  environment?: File;
  data?: File;
}

/**
 * Tells the files picked together apart (docs/adr/0029-postman-collections.md): a CSV, or a JSON array,
 * is the data file; a JSON object with `values` and no `item` is a Postman environment (or globals)
 * file; the rest is the file to import. Null when no file to import is among them.
 */
export async function sortPickedFiles(files: readonly File[]): Promise<PickedFiles | { problem: string }> {
  let file: File | undefined;
  let environment: File | undefined;
  let data: File | undefined;
  for (const picked of files) {
    const kind = await kindOf(picked);
    const slot = kind === 'environment' && files.length === 1 ? 'file' : kind;
    const taken = slot === 'data' ? data : slot === 'environment' ? environment : file;
    if (taken !== undefined)
      return {
        problem: `${taken.name} and ${picked.name} are both ${slot === 'file' ? 'files to import' : `${slot} files`}: pick one of each`,
      };
    if (slot === 'data') data = picked;
    else if (slot === 'environment') environment = picked;
    else file = picked;
  }
  if (file === undefined)
    return {
      problem: 'Pick the file to import (a collection or an API document) with its environment or data file',
    };
  return { file, ...(environment ? { environment } : {}), ...(data ? { data } : {}) };
}

type PickedKind = 'file' | 'environment' | 'data';

/** What a picked file is, by its name and its first 4 KB (sortPickedFiles). */
async function kindOf(picked: File): Promise<PickedKind> {
  const head = (await picked.slice(0, 4096).text()).replace(/^\uFEFF/, '').trimStart();
  if (/\.csv$/i.test(picked.name) || (/\.json$/i.test(picked.name) && head.startsWith('['))) return 'data';
  const isEnvironment =
    head.startsWith('{') &&
    /"values"\s*:/.test(head) &&
    !/"item"\s*:/.test(head) &&
    !/"openapi"|"swagger"/.test(head);
  return isEnvironment ? 'environment' : 'file';
}

/**
 * An environment (or globals) file and a data file picked without a collection: null unless every
 * picked file is one of them, one of each at most. A plan that already has its APIs takes them
 * (readCollectionFiles), as a collection imported first and its files picked after.
 */
export async function collectionFilesAlone(
  files: readonly File[],
): Promise<{ environment?: File; data?: File } | null> {
  let environment: File | undefined;
  let data: File | undefined;
  for (const picked of files) {
    const kind = await kindOf(picked);
    if (kind === 'file' || (kind === 'environment' ? environment : data) !== undefined) return null;
    if (kind === 'environment') environment = picked;
    else data = picked;
  }
  if (environment === undefined && data === undefined) return null;
  return { ...(environment ? { environment } : {}), ...(data ? { data } : {}) };
}

/**
 * Reads an environment (or globals) file and a data file as the importer reads them beside a
 * collection (@aqa/converters, docs/adr/0029-postman-collections.md §3): the collection fields they
 * give, to merge into the plan's (mergedCollection), and the data file's rows, its iterations. A file
 * that is wrong throws, naming the file and the problem.
 */
export async function readCollectionFiles(picked: {
  environment?: File;
  data?: File;
}): Promise<{ collection: CollectionForm; iterations?: number }> {
  const variables = picked.environment
    ? readPostmanEnvironment({ name: picked.environment.name, text: await picked.environment.text() })
    : undefined;
  const data = picked.data
    ? readPostmanDataFile({ name: picked.data.name, text: await picked.data.text() })
    : undefined;
  const collection = collectionFormOf({
    ...(variables?.scope === 'environment' ? { environment: variables.environment } : {}),
    ...(variables?.scope === 'globals' ? { globals: variables.environment.values } : {}),
    ...(data ? { iteration_data: data.data } : {}),
  });
  return { collection, ...(data ? { iterations: data.rows.length } : {}) };
}

export async function importApisFromFile(
  picked: PickedFiles | File,
  signal?: AbortSignal,
): Promise<ImportedApis> {
  const { file, environment, data } = picked instanceof File ? { file: picked } : picked;
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('test_type', 'api');
  if (environment) form.append('environment', environment, environment.name);
  if (data) form.append('data', data, data.name);
  const answer = await upload(contract.imports.functionalFile, form, { signal });
  // A Postman collection answers the whole plan: its APIs keep their scripts and folders.
  const plan = answer.plan === undefined ? undefined : FunctionalPlanSchema.safeParse(answer.plan);
  if (plan?.success) {
    const read = readImportedApis(plan.data.apis);
    const counts = answer.postman;
    return {
      ...read,
      collection: collectionFormOf(plan.data),
      testName: plan.data.test_name,
      thinkTime: plan.data.think_time,
      ...(plan.data.iteration_data === undefined ? {} : { iterations: plan.data.iterations }),
      ...(counts === undefined
        ? {}
        : {
            tests: {
              tests: counts.tests,
              rules: counts.rules,
              scripts: counts.scripts,
              leftOut: counts.left_out,
            },
          }),
    };
  }
  return readImportedApis(answer.apis);
}
