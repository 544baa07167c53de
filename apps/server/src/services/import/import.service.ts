import type { FastifyBaseLogger } from 'fastify';
import { emptyReason, type ImportAnswer, type ImportJob } from './import-job';
import {
  DEFAULT_IMPORT_POOL_OPTIONS,
  ImportPool,
  type ImportPoolOptions,
  ImportQueueFullError,
  ImportWorkerError,
  type JobOutcome,
} from './import-pool';
import { ImportFailedError, RateLimitedError } from '../../errors';

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

  constructor(
    options: ImportPoolOptions = DEFAULT_IMPORT_POOL_OPTIONS,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.pool = new ImportPool(options);
  }

  /**
   * Imports the job for `owner` (the user's id), who may have only a share of the queue: the answer as
   * objects, for the functional file parse, which reshapes it.
   */
  async parse(owner: string, job: ImportJob): Promise<ImportAnswer> {
    const outcome = await this.run(owner, { ...job, asJson: false });
    if (!('answer' in outcome))
      throw new Error('The import worker answered JSON where objects were asked for');
    const { answer } = outcome;
    if (answer.steps.length === 0) {
      throw nothingToImport(job.file.name, answer.info.requests, emptyReason(answer.warnings));
    }
    return answer;
  }

  /**
   * Like parse, with the parse calls' answer (import.schemas.ts ParseResponseSchema) written out in the
   * worker: the bytes to send as they are.
   */
  async parseToJson(owner: string, job: ImportJob): Promise<Uint8Array> {
    const outcome = await this.run(owner, { ...job, asJson: true });
    if (!('json' in outcome)) throw new Error('The import worker answered objects where JSON was asked for');
    const { json, steps, requests, reason } = outcome.json;
    if (steps === 0) throw nothingToImport(job.file.name, requests, reason);
    return json;
  }

  private async run(owner: string, job: ImportJob): Promise<Extract<JobOutcome, { ok: true }>> {
    const file = job.file.name;
    let outcome;
    try {
      outcome = await this.pool.run(job, owner);
    } catch (error) {
      if (error instanceof ImportQueueFullError) throw queueFull(error);
      if (!(error instanceof ImportWorkerError)) throw error;
      throw new ImportFailedError(`IMPORT_${error.reason.toUpperCase()}`, `${file} ${error.message}`, {
        cause: error,
      });
    }
    if (outcome.ok) return outcome;
    if (outcome.error.kind === 'import') {
      throw new ImportFailedError('IMPORT_FAILED', `${outcome.error.file}: ${outcome.error.problem}`);
    }
    // An importer that throws anything but an ImportError has a bug, which the fuzz tests look for
    // (packages/converters/src/import/fuzz.test.ts); the upload is still what it failed on, so the
    // answer is a 400 naming the file, and the stack goes to the log.
    const failure = new Error(outcome.error.message);
    failure.stack = outcome.error.stack;
    this.log?.error({ err: failure, file }, 'An importer failed unexpectedly');
    throw new ImportFailedError(
      'IMPORT_UNREADABLE',
      `${file}: could not be imported: the importer failed on it`,
      {
        cause: failure,
        hint: 'Check that the file is the kind chosen, and not damaged; if it is, please report it with the file.',
      },
    );
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** 429 with Retry-After, in words that say whose share is used up (docs/design.md §11 "Bad input"). */
function queueFull(error: ImportQueueFullError): RateLimitedError {
  const wait = `try again in ${error.retryAfterS} ${error.retryAfterS === 1 ? 'second' : 'seconds'}`;
  return error.reason === 'user'
    ? new RateLimitedError(
        'IMPORT_QUEUE_USER_LIMIT',
        `You already have the most imports waiting or running that one user may have; ${wait}, when one of them has finished`,
        error.retryAfterS,
        { cause: error },
      )
    : new RateLimitedError(
        'IMPORT_QUEUE_FULL',
        `The server has as many imports waiting as it takes; ${wait}`,
        error.retryAfterS,
        { cause: error },
      );
}

function nothingToImport(file: string, requests: number, reason: string | undefined): ImportFailedError {
  return new ImportFailedError(
    'NOTHING_TO_IMPORT',
    `${file}: ${requests === 0 ? 'the document describes no requests to import' : `none of its ${requests} requests can be imported`}${reason ? ` (${reason.replace(/\.$/, '')})` : ''}`,
  );
}
