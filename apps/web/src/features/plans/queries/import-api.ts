import { api } from '@/lib/api';
import type { FileKind } from '../model/upload-source';

/** The parse calls (docs/reference/01-authoring.md §7 parse-swagger / parse-postman, and the HAR, cURL and table importers). */

export interface ImportWarning {
  /** Where in the file: "paths./pets/{petId}.get", "Folder / Request", "entries[3]", "row 4". */
  location: string;
  message: string;
}

export interface ImportInfo {
  format: string;
  /** What the file is: "OpenAPI 3.0.3", "Postman collection v2.1.0", "HAR 1.2", "CSV". */
  kind: string;
  title: string;
  version?: string;
  servers: string[];
  requests: number;
  methods: Record<string, number>;
}

/** A {{variable}} the imported calls send that the file gives no value. */
export interface NeededValue {
  name: string;
  /** The calls that send it: "GET /pets/{petId}". */
  calls: string[];
}

/** What the import screen lists of one API (the server's ParsedApiSchema, parallel to `steps`). */
export interface ImportedApi {
  name: string;
  method: string;
  /** The path as the document writes it ("/pets/{petId}"). */
  path: string;
  /** An OpenAPI operation's tags, or a Postman request's folders. */
  tags?: string[];
  /** An OpenAPI operation's operationId ("" without). */
  operationId?: string;
}

export interface ImportAnswer {
  /** The APIs as the import screen lists them, in the order of `steps`. */
  apis?: ImportedApi[];
  /** The plan's URL entries, in the file's order. */
  steps: unknown[];
  warnings: ImportWarning[];
  info: ImportInfo;
  needs_value: NeededValue[];
}

export type UploadSource =
  { kind: 'curl'; command: string } | { kind: FileKind; file: File; baseUrl?: string | undefined };

/** Multipart uploads per kind; CSV and Excel go through the file parse of docs/reference/02-running.md §7 with their format. */
const FILE_ENDPOINTS: Record<FileKind, { path: string; format?: string }> = {
  swagger: { path: '/parse-swagger' },
  postman: { path: '/parse-postman' },
  har: { path: '/parse-har' },
  csv: { path: '/functional/parse-file', format: 'csv' },
  excel: { path: '/functional/parse-file', format: 'excel' },
};

export function parseUpload(source: UploadSource, signal?: AbortSignal): Promise<ImportAnswer> {
  if (source.kind === 'curl') {
    return api.post<ImportAnswer>('/parse-curl', { command: source.command }, { signal });
  }
  const endpoint = FILE_ENDPOINTS[source.kind];
  const form = new FormData();
  form.append('file', source.file, source.file.name);
  if (endpoint.format) form.append('format', endpoint.format);
  // Only the OpenAPI importer replaces servers itself; the other formats are re-based in the browser.
  if (source.kind === 'swagger' && source.baseUrl?.trim()) form.append('base_url', source.baseUrl.trim());
  return api.upload<ImportAnswer>(endpoint.path, form, { signal });
}
