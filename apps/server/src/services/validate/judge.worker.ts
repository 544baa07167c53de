import { parentPort } from 'node:worker_threads';
import type { UrlEntry } from '@aqa/plan';
import { judgeEntry, type EntryVerdict } from './judge-entry';
import type { ReceivedResponse } from './http-exchange';

/**
 * Validate's judging thread (docs/adr/0022-linear-time-patterns.md): the assertion, the validation items
 * and the extraction of one answer are judged here, off the server's event loop, so no check — however
 * costly for the answer — delays another request; judge-pool.ts ends a thread that takes too long.
 * Bundled as its own entry (dist/validate-worker.mjs).
 */

export interface JudgeRequest {
  id: number;
  entry: UrlEntry;
  /** The answer, its body as bytes of their own (moved here, not shared). */
  response: Omit<ReceivedResponse, 'body'> & { body: Uint8Array };
}

export type JudgeReply =
  { id: number; ok: true; verdict: EntryVerdict } | { id: number; ok: false; message: string };

// Sent once the code above has loaded: the pool's time limit counts from here.
parentPort?.postMessage({ ready: true });

parentPort?.on('message', ({ id, entry, response }: JudgeRequest) => {
  let reply: JudgeReply;
  try {
    const body = Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
    reply = { id, ok: true, verdict: judgeEntry(entry, { ...response, body }) };
  } catch (error) {
    reply = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
