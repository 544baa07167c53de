import { parentPort } from 'node:worker_threads';
import { ImportError } from '@aqa/converters';
import { type ImportJob, type JsonAnswer, runImportJob, runImportJobAsJson } from './import-job';

/**
 * The import worker thread: parses uploaded documents off the server's event loop, one at a time, so a
 * large file never delays other users' requests. Bundled as its own entry (dist/import-worker.mjs).
 */

export interface JobRequest {
  id: number;
  job: ImportJob;
}

export type JobReply =
  | { id: number; ok: true; answer: ReturnType<typeof runImportJob> }
  | { id: number; ok: true; json: JsonAnswer }
  | {
      id: number;
      ok: false;
      error:
        | { kind: 'import'; file: string; problem: string }
        | { kind: 'internal'; message: string; stack?: string | undefined };
    };

// Sent once the imports above have loaded: the pool's time limit counts from here.
parentPort?.postMessage({ ready: true });

parentPort?.on('message', ({ id, job }: JobRequest) => {
  let reply: JobReply;
  try {
    reply = job.asJson
      ? { id, ok: true, json: runImportJobAsJson(job) }
      : { id, ok: true, answer: runImportJob(job) };
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
  // The JSON bytes are moved, not copied.
  parentPort?.postMessage(reply, reply.ok && 'json' in reply ? [reply.json.json.buffer as ArrayBuffer] : []);
});
