import { contract } from '@aqa/contract';
import { ApiDefinitionSchema } from '@aqa/plan';
import { upload } from '@/lib/api';
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

export async function importApisFromFile(file: File, signal?: AbortSignal): Promise<ImportedApis> {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('test_type', 'api');
  const answer = await upload(contract.imports.functionalFile, form, { signal });
  return readImportedApis(answer.apis);
}
