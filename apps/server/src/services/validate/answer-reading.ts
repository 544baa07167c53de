import type { ResponseView } from '@aqa/engine/call';
import type { ReceivedResponse } from './http-exchange';

/*
 * One answer as Validate's checks read it: the call core's ResponseView of it (docs/call-core.md), whose
 * body is read as JSON or XML once and shared by the assertion, the validation items and the extraction,
 * beside what Validate's read limit adds (a body cut short, a size that may be unknown). What is
 * Validate's own here is only the wording of a check that cannot look into the body.
 */

export interface Answer {
  view: ResponseView;
  received: ReceivedResponse;
}

export function readAnswer(received: ReceivedResponse): Answer {
  return {
    view: {
      status: received.status,
      headers: received.headers,
      body: received.body.toString('utf8'),
      sizeBytes: received.sizeBytes ?? received.body.length,
      timeMs: received.timeMs,
    },
    received,
  };
}

/** Why the body could not be read as JSON, in Validate's words. */
export function notJsonReason(answer: Answer): string {
  return answer.received.truncated
    ? 'the body was cut at the size limit, so it is not whole JSON'
    : 'the body is not JSON';
}
