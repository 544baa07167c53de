import { SCRIPT_EXTENSIONS } from '@aqa/converters';
import { UrlEntrySchema, type Tool } from '@aqa/plan';
import { entryFromModel } from './plan-form';
import { type EntryForm } from '@/features/call-editor';

/**
 * Step 1 of the script-upload screen: what can be uploaded, and the checks made in the browser before a
 * file is sent. The spec's two kinds (Swagger/OpenAPI, Postman) come first; HAR recordings, CSV and Excel
 * sheets, Taurus configurations and pasted cURL commands use the same importers on the server.
 */

export const UPLOAD_KINDS = ['swagger', 'postman', 'har', 'taurus', 'csv', 'excel', 'curl'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];
export type FileKind = Exclude<UploadKind, 'curl'>;

/** File extensions each kind accepts (docs/reference/01-authoring.md §2: Swagger .json/.yaml/.yml, Postman .json only). */
export const ACCEPTED_EXTENSIONS: Record<FileKind, readonly string[]> = {
  swagger: ['.json', '.yaml', '.yml'],
  postman: ['.json'],
  har: ['.har', '.json'],
  // A Taurus configuration (docs/adr/0027-load-profiles.md "Importers"), with the CSV files it reads beside it.
  taurus: ['.yml', '.yaml'],
  csv: ['.csv'],
  excel: ['.xlsx'],
};

/** A size in MB as the server's messages write it: "25", "0.5" (its MB is 1024 × 1024 bytes). */
export function megabytes(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return Number.isInteger(mb) ? String(mb) : String(Number(mb.toFixed(1)));
}

export function isFileKind(kind: UploadKind): kind is FileKind {
  return kind !== 'curl';
}

export type UploadProblem =
  | { problem: 'noFile'; kind: FileKind }
  | { problem: 'noCommand' }
  | { problem: 'wrongType'; kind: FileKind; file: string }
  | { problem: 'tooLarge'; file: string; maxBytes: number }
  | { problem: 'empty'; file: string }
  | { problem: 'baseUrl' };

/** The same rule as the server: blank, or a full http(s) URL. */
export function isBaseUrl(text: string): boolean {
  const value = text.trim();
  return value === '' || /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(value);
}

export function extensionOf(fileName: string): string {
  const match = /(\.[^./\\]+)$/.exec(fileName.toLowerCase());
  return match?.[1] ?? '';
}

/**
 * What is wrong with the chosen input before it is sent, in the order a person would fix it.
 * `maxFileBytes` is the server's own bound (GET /api/upload-limits, UPLOAD_MAX_FILE_MB); while it is not
 * known yet the size is left to the server, which refuses a larger file in the same words.
 */
export function checkUpload(input: {
  kind: UploadKind;
  file: { name: string; size: number } | null;
  command: string;
  baseUrl: string;
  maxFileBytes: number | null;
}): UploadProblem | null {
  if (!isFileKind(input.kind)) {
    if (input.command.trim() === '') return { problem: 'noCommand' };
  } else {
    const { file, kind } = input;
    if (!file) return { problem: 'noFile', kind };
    if (!ACCEPTED_EXTENSIONS[kind].includes(extensionOf(file.name)))
      return { problem: 'wrongType', kind, file: file.name };
    if (file.size === 0) return { problem: 'empty', file: file.name };
    if (input.maxFileBytes !== null && file.size > input.maxFileBytes)
      return { problem: 'tooLarge', file: file.name, maxBytes: input.maxFileBytes };
  }
  if (!isBaseUrl(input.baseUrl)) return { problem: 'baseUrl' };
  return null;
}

/**
 * Points a request at the base URL the user gave, for formats whose importer has no servers to replace
 * (Postman, HAR, CSV, Excel, cURL): the scheme and host — or a leading {{variable}} standing for them — are
 * replaced, the path and query kept. "https://api.test/v1/users" with "http://127.0.0.1:8080/api" gives
 * "http://127.0.0.1:8080/api/v1/users".
 */
export function rebaseUrl(url: string, baseUrl: string): string {
  const base = baseUrl.trim().replace(/\/+$/, '');
  if (base === '') return url;
  const absolute = /^https?:\/\/[^/?#]*(.*)$/i.exec(url.trim());
  if (absolute) return base + (absolute[1] ?? '');
  const variable = /^\{\{[^{}]+\}\}(.*)$/.exec(url.trim());
  if (variable) return base + (variable[1] ?? '');
  return url;
}

/** The steps of a parse answer as call editors; a step the model cannot read is reported, not dropped silently. */
export function entriesFromSteps(
  steps: readonly unknown[],
  options: { baseUrl?: string } = {},
): { entries: EntryForm[]; unreadable: { index: number; message: string }[] } {
  const entries: EntryForm[] = [];
  const unreadable: { index: number; message: string }[] = [];
  steps.forEach((step, index) => {
    const parsed = UrlEntrySchema.safeParse(step);
    if (!parsed.success) {
      unreadable.push({ index, message: parsed.error.issues[0]?.message ?? 'not an API call' });
      return;
    }
    const entry = entryFromModel(parsed.data);
    entries.push(options.baseUrl ? { ...entry, url: rebaseUrl(entry.url, options.baseUrl) } : entry);
  });
  return { entries, unreadable };
}

/**
 * The download name on this screen: docs/reference/01-authoring.md §9's performance_test_{tool}.jmx (JMeter) / .js, with each
 * tool's own extension so that the file opens in that tool (docs/design.md §5).
 */
export function uploadScriptFileName(tool: Tool): string {
  return `performance_test_${tool}.${SCRIPT_EXTENSIONS[tool]}`;
}
