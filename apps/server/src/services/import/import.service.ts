import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { UploadLimits } from '../../config';
import { emptyReason, type ImportAnswer, type ImportJob } from './import-job';
import {
  DEFAULT_IMPORT_POOL_OPTIONS,
  ImportPool,
  type ImportPoolOptions,
  ImportQueueFullError,
  ImportWorkerError,
  type JobOutcome,
} from './import-pool';
import { ImportFailedError, PayloadTooLargeError, RateLimitedError } from '../../errors';

/** The multipart framing and text fields around an upload's files: allowed on top of its limit. */
const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

/** A place held for one upload (ImportService.admit). */
export interface AdmittedUpload {
  /** A folder of the upload's own to store its files in. */
  folder: string;
  /** Gives the place back and removes the folder and what is in it. */
  release(): Promise<void>;
}

/** Removes what a server that stopped mid-upload left in the uploads folder; a live upload is younger. */
function removeLeftOvers(dir: string, log: FastifyBaseLogger | undefined): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  const before = Date.now() - LEFT_OVER_UPLOAD_MS;
  for (const entry of entries) {
    const path = join(dir, entry);
    try {
      if (statSync(path).mtimeMs < before) rmSync(path, { recursive: true, force: true });
    } catch (err) {
      log?.warn({ err, path }, 'Could not remove an upload left by a stopped server');
    }
  }
}

/** The uploads' default bounds (UPLOAD_MAX_FILE_MB, UPLOAD_MAX_MB, UPLOADS_AT_ONCE_MB; docs/adr/0024-memory-bounds.md). */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxFileBytes: 25 * 1024 * 1024,
  maxUploadBytes: 50 * 1024 * 1024,
  atOnceBytes: 200 * 1024 * 1024,
};

/** Files one upload may carry beside its document: the rest of a multi-file spec, an environment. */
export const MAX_UPLOAD_FILES = 50;

/** A size in MB as the messages write it: "25 MB", "120.5 MB". */
export function megabytes(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return `${Number.isInteger(mb) ? mb : Number(mb.toFixed(1))} MB`;
}

export const IMPORT_MESSAGES = {
  noSwaggerFile: 'Please select a Swagger file first',
  noPostmanFile: 'Please select a Postman file first',
  noFile: 'Please select a file first',
  noCommand: 'Please paste a curl command first',
  twoDocuments:
    'The upload has more than one file named "file"; send one document there, and the other files of a multi-file spec as "files"',
  tooManyParts: `The upload has too many files or fields; send one document, and at most ${MAX_UPLOAD_FILES} files it refers to`,
  /** A file over UPLOAD_MAX_FILE_MB, named. */
  fileTooLarge: (maxBytes: number, file: string) =>
    `The file is larger than ${megabytes(maxBytes)}, the largest file accepted (${file}). Split the document, or remove the examples and descriptions it does not need.`,
  /** An upload whose files together are over UPLOAD_MAX_MB; its size when known. */
  uploadTooLarge: (maxBytes: number, sizeBytes?: number) =>
    `The upload is ${sizeBytes === undefined ? `larger than ${megabytes(maxBytes)}` : megabytes(sizeBytes)}; at most ${megabytes(maxBytes)} per upload (all its files together). Upload the document with only the files it refers to.`,
} as const;

/** Stored uploads older than this were left by a server that stopped mid-upload. */
const LEFT_OVER_UPLOAD_MS = 60 * 60 * 1000;

/**
 * Imports uploaded documents (docs/reference/01-authoring.md §7 parse-swagger / parse-postman, docs/reference/02-running.md §7 file parse) in the
 * import worker, so that parsing never holds up other requests, and turns what goes wrong into answers
 * that name the file and the problem.
 */
export class ImportService {
  private readonly pool: ImportPool;
  private readonly perUser: number;
  /** Uploads being received or imported, by owner, with the bytes each holds a place for. */
  private readonly inProgress = new Map<string, number[]>();
  private reservedBytes = 0;

  /**
   * `uploadsDir` is where uploads are streamed while they are received and imported (DATA_DIR/uploads:
   * on disk, not a tmpfs that would hold them in memory); what a stopped server left there is removed.
   */
  constructor(
    options: ImportPoolOptions = DEFAULT_IMPORT_POOL_OPTIONS,
    private readonly log?: FastifyBaseLogger,
    readonly uploadLimits: UploadLimits = DEFAULT_UPLOAD_LIMITS,
    private readonly uploadsDir?: string,
  ) {
    this.pool = new ImportPool(options);
    this.perUser = options.perUser;
    if (uploadsDir !== undefined) removeLeftOvers(uploadsDir, log);
  }

  /**
   * Holds a place for an upload of `owner` before a byte of it is read (docs/adr/0024-memory-bounds.md):
   * refused with 413 when its declared size (Content-Length) is over the per-upload limit, and with 429
   * when the user already has their share of uploads being received or imported (IMPORT_QUEUE_PER_USER)
   * or the server is receiving or importing as many bytes of uploads as it takes at once. An upload of
   * no declared size holds a place as large as the per-upload limit. The answer gives the place back
   * and removes the folder the upload was stored in; call it once the upload's answer is known.
   */
  async admit(owner: string, declaredBytes: number | undefined): Promise<AdmittedUpload> {
    const { maxUploadBytes, atOnceBytes } = this.uploadLimits;
    if (declaredBytes !== undefined && declaredBytes > maxUploadBytes + MULTIPART_OVERHEAD_BYTES) {
      throw new PayloadTooLargeError(
        'UPLOAD_TOO_LARGE',
        IMPORT_MESSAGES.uploadTooLarge(maxUploadBytes, declaredBytes),
      );
    }
    const mine = this.inProgress.get(owner) ?? [];
    if (mine.length >= this.perUser) {
      throw queueFull(new ImportQueueFullError('user', this.pool.retryAfter(owner)));
    }
    const bytes = Math.min(declaredBytes ?? maxUploadBytes, maxUploadBytes + MULTIPART_OVERHEAD_BYTES);
    if (this.reservedBytes + bytes > atOnceBytes + MULTIPART_OVERHEAD_BYTES) {
      const retryAfterS = this.pool.retryAfter();
      throw new RateLimitedError(
        'UPLOADS_AT_ONCE',
        `The server is receiving or importing ${megabytes(this.reservedBytes)} of uploads, and takes at most ${megabytes(atOnceBytes)} at once; try again in ${retryAfterS} ${retryAfterS === 1 ? 'second' : 'seconds'}`,
        retryAfterS,
      );
    }
    mine.push(bytes);
    this.inProgress.set(owner, mine);
    this.reservedBytes += bytes;
    let folder: string | undefined;
    const release = async (): Promise<void> => {
      if (folder !== undefined) await rm(folder, { recursive: true, force: true });
      folder = undefined;
      const index = mine.indexOf(bytes);
      if (index < 0) return;
      mine.splice(index, 1);
      if (mine.length === 0) this.inProgress.delete(owner);
      this.reservedBytes -= bytes;
    };
    try {
      if (this.uploadsDir === undefined) throw new Error('This server stores no uploads');
      mkdirSync(this.uploadsDir, { recursive: true });
      folder = await mkdtemp(join(this.uploadsDir, 'upload-'));
    } catch (error) {
      await release();
      throw error;
    }
    return { folder, release };
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
    if (answer.steps.length === 0 && answer.recording === undefined) {
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
