import { contract, type CallAnswer } from '@aqa/contract';
import { apiRequest, upload } from '@/lib/api';
import type { FileKind } from '../model/upload-source';

/** The parse calls (docs/reference/01-authoring.md §7 parse-swagger / parse-postman, and the HAR, cURL and table importers). */

type ParseAnswer = CallAnswer<typeof contract.imports.swagger>;
type FileParseAnswer = CallAnswer<typeof contract.imports.functionalFile>;
type TaurusParseAnswer = CallAnswer<typeof contract.imports.taurus>;

/** What a Taurus configuration says of the plan besides its calls: users, minutes, profile, data. */
export type ImportedSettings = TaurusParseAnswer['settings'];

/** What could not be carried over: where in the file ("paths./pets/{petId}.get", "row 4") and why. */
export type ImportWarning = ParseAnswer['warnings'][number];
/** What the file is: its format, kind ("OpenAPI 3.0.3"), title, servers, requests and methods. */
export type ImportInfo = ParseAnswer['info'];
/** A {{variable}} the imported calls send that the file gives no value, and the calls that send it. */
export type NeededValue = ParseAnswer['needs_value'][number];

/**
 * What the import screen reads of one API of either answer (parallel to `steps`): the importers' name
 * and method, and the path, tags and operationId that the OpenAPI, Postman and HAR importers give.
 */
export type ImportedApi = Pick<ParseAnswer['apis'][number], 'name' | 'method'> &
  Partial<Pick<ParseAnswer['apis'][number], 'path' | 'tags' | 'operationId'>>;

/** The answer of the import calls and of the file parse (CSV and Excel), as the contract types them. */
export type ImportAnswer = ParseAnswer | FileParseAnswer | TaurusParseAnswer;

export type UploadSource =
  | { kind: 'curl'; command: string }
  | {
      kind: FileKind;
      file: File;
      baseUrl?: string | undefined;
      /** A Taurus configuration's CSV files (its data-sources), sent beside it as `files`. */
      dataFiles?: readonly File[] | undefined;
    };

/** The multipart imports of a file kind; CSV and Excel go through the file parse of docs/reference/02-running.md §7. */
const IMPORT_ROUTES = {
  swagger: contract.imports.swagger,
  postman: contract.imports.postman,
  har: contract.imports.har,
  taurus: contract.imports.taurus,
};

export function parseUpload(source: UploadSource, signal?: AbortSignal): Promise<ImportAnswer> {
  if (source.kind === 'curl') {
    // The cURL import reads a JSON { command } (or a form) in its handler, so the contract has no body
    // schema to type the input with; its answer is the contract's.
    return apiRequest<CallAnswer<typeof contract.imports.curl>>('/parse-curl', {
      method: 'POST',
      body: { command: source.command },
      signal,
    });
  }
  const form = new FormData();
  form.append('file', source.file, source.file.name);
  if (source.kind === 'csv' || source.kind === 'excel') {
    form.append('format', source.kind);
    return upload(contract.imports.functionalFile, form, { signal });
  }
  for (const dataFile of source.kind === 'taurus' ? (source.dataFiles ?? []) : [])
    form.append('files', dataFile, dataFile.name);
  // Only the OpenAPI importer replaces servers itself; the other formats are re-based in the browser.
  if (source.kind === 'swagger' && source.baseUrl?.trim()) form.append('base_url', source.baseUrl.trim());
  return upload(IMPORT_ROUTES[source.kind], form, { signal });
}
