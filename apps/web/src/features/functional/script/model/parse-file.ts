import { contract } from '@aqa/contract';
import { upload } from '@/lib/api';

/**
 * The file parse of docs/reference/02-running.md §7 (POST /api/functional/parse-file, multipart: the file,
 * its format and the test type) for the script screen: the answer's script goes into the editor. The
 * file picker accepts each format's own types.
 */

export const FILE_KINDS = ['postman', 'swagger', 'csv', 'excel'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** The accepted types of docs/reference/02-running.md §2 "Functional Script Input screen". */
export const ACCEPTED_TYPES: Record<FileKind, string> = {
  postman: '.json',
  swagger: '.json,.yaml,.yml',
  csv: '.csv',
  excel: '.xlsx,.xls',
};

export interface ParsedFile {
  script: string;
  apiCount: number;
  /** A Postman collection's tests (docs/adr/0029-postman-collections.md §1): a script keeps none of them. */
  postmanTests?: number;
}

export async function parseFileToScript(file: File, format: FileKind): Promise<ParsedFile> {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('format', format);
  form.append('test_type', 'api');
  const answer = await upload(contract.imports.functionalFile, form);
  return {
    script: answer.script,
    apiCount: answer.apis.length,
    ...(answer.postman === undefined ? {} : { postmanTests: answer.postman.tests }),
  };
}
