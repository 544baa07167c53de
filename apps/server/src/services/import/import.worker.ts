import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { ImportError } from '@aqa/converters';
import {
  type ImportJob,
  type JsonAnswer,
  type ReadFile,
  type ReadJob,
  runImportJob,
  runImportJobAsJson,
  type UploadedFile,
} from './import-job';

/**
 * The import worker thread: parses uploaded documents off the server's event loop, one at a time, so a
 * large file never delays other users' requests. Bundled as its own entry (dist/import-worker.mjs).
 */

export interface JobRequest {
  id: number;
  job: ImportJob;
}

export type JobReply = (
  | { id: number; ok: true; answer: ReturnType<typeof runImportJob> }
  | { id: number; ok: true; json: JsonAnswer }
  | {
      id: number;
      ok: false;
      error:
        | { kind: 'import'; file: string; problem: string }
        | { kind: 'internal'; message: string; stack?: string | undefined };
    }
) & {
  /** The worker's heap after the job, in MB: a worker a large document grew is retired (import-pool.ts). */
  heapMb: number;
};

/**
 * The uploads read from the temporary files they were streamed to, here in the worker thread, so their
 * bytes never pass through the server's event loop (docs/adr/0024-memory-bounds.md). The other files of
 * a multi-file spec are read only when the document refers to them.
 */
function readFiles(job: ImportJob): ReadJob {
  const read = (file: UploadedFile): ReadFile =>
    'path' in file ? { name: file.name, bytes: readFileSync(file.path) } : file;
  const readWhenAsked = (file: UploadedFile): ReadFile => {
    if (!('path' in file)) return file;
    let bytes: Uint8Array | undefined;
    return {
      name: file.name,
      get bytes() {
        bytes ??= readFileSync(file.path);
        return bytes;
      },
    };
  };
  return {
    ...job,
    file: read(job.file),
    files: job.files?.map(readWhenAsked),
    environment: job.environment && read(job.environment),
    data: job.data && read(job.data),
  };
}

// Sent once the imports above have loaded: the pool's time limit counts from here.
parentPort?.postMessage({ ready: true });

parentPort?.on('message', ({ id, job }: JobRequest) => {
  let reply: DistributiveOmit<JobReply, 'heapMb'>;
  try {
    const read = readFiles(job);
    reply = job.asJson
      ? { id, ok: true, json: runImportJobAsJson(read) }
      : { id, ok: true, answer: runImportJob(read) };
  } catch (error) {
    reply =
      error instanceof ImportError
        ? { id, ok: false, error: { kind: 'import', file: error.file, problem: error.problem } }
        : {
            id,
            ok: false,
            error: {
              kind: 'internal',
              message: error instanceof Error ? error.message : String(error),
              stack: error instanceof Error ? error.stack : undefined,
            },
          };
  }
  const heapMb = Math.round(getHeapStatistics().total_heap_size / 1024 / 1024);
  // The JSON bytes are moved, not copied.
  parentPort?.postMessage(
    { ...reply, heapMb },
    reply.ok && 'json' in reply ? [reply.json.json.buffer as ArrayBuffer] : [],
  );
});

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
