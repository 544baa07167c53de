import { type ImportAnswer, type ImportJob } from './import-job';
import { ImportPool, type ImportPoolOptions, ImportWorkerError } from './import-pool';
import { ImportFailedError } from '../../errors';

/** The largest upload the parse calls accept. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

export const IMPORT_MESSAGES = {
  noSwaggerFile: 'Please select a Swagger file first',
  noPostmanFile: 'Please select a Postman file first',
  noFile: 'Please select a file first',
  noCommand: 'Please paste a curl command first',
  twoDocuments:
    'The upload has more than one file named "file"; send one document there, and the other files of a multi-file spec as "files"',
  tooLarge: `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB, the largest upload accepted. Split the document, or remove the examples and descriptions it does not need.`,
} as const;

/**
 * Imports uploaded documents (docs/reference/01-authoring.md §7 parse-swagger / parse-postman, docs/reference/02-running.md §7 file parse) in the
 * import worker, so that parsing never holds up other requests, and turns what goes wrong into answers
 * that name the file and the problem.
 */
export class ImportService {
  private readonly pool: ImportPool;

  constructor(options?: ImportPoolOptions) {
    this.pool = new ImportPool(options);
  }

  async parse(job: ImportJob): Promise<ImportAnswer> {
    const file = job.file.name;
    let outcome;
    try {
      outcome = await this.pool.run(job);
    } catch (error) {
      if (!(error instanceof ImportWorkerError)) throw error;
      throw new ImportFailedError(`IMPORT_${error.reason.toUpperCase()}`, `${file} ${error.message}`, {
        cause: error,
      });
    }
    if (!outcome.ok) {
      if (outcome.error.kind === 'import') {
        throw new ImportFailedError('IMPORT_FAILED', `${outcome.error.file}: ${outcome.error.problem}`);
      }
      const failure = new Error(outcome.error.message);
      failure.stack = outcome.error.stack;
      throw failure;
    }
    const { answer } = outcome;
    if (answer.steps.length === 0) {
      const { requests } = answer.info;
      // The warning that says why requests were left out, rather than one about a script or a server.
      const reason = (
        answer.warnings.find((w) => /left out|not imported|no paths|no operations/.test(w.message)) ??
        answer.warnings[0]
      )?.message;
      throw new ImportFailedError(
        'NOTHING_TO_IMPORT',
        `${file}: ${requests === 0 ? 'the document describes no requests to import' : `none of its ${requests} requests can be imported`}${reason ? ` (${reason.replace(/\.$/, '')})` : ''}`,
      );
    }
    return answer;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
