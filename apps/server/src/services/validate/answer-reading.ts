import { bodyJson, compileJsonPath, evaluateXPath, type ResponseView } from '@aqa/engine/call';
import type { ReceivedResponse } from './http-exchange';

/*
 * One answer as Validate's checks read it: the call core's ResponseView of it (docs/call-core.md), whose
 * body is read as JSON or XML once and shared by the assertion, the validation items and the extraction,
 * beside what Validate's read limit adds (a body cut short, a size that may be unknown). What is
 * Validate's own here is only the wording of a check that cannot look into the body.
 */

/** A check could not look into the body (not JSON, not XML, a bad expression); the message says which. */
export class CheckError extends Error {
  override name = 'CheckError';
}

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

/** The parsed body; throws CheckError when it is not JSON. */
function answerJson(answer: Answer): unknown {
  const read = bodyJson(answer.view);
  if (read !== null) return read.json;
  throw new CheckError(notJsonReason(answer));
}

/**
 * The first value the JSONPath matches, read as the engine reads it everywhere (call/json-path.ts:
 * "data.id" and ".data.id" mean "$.data.id"), or undefined when it matches nothing.
 */
export function firstJsonMatch(answer: Answer, path: string): unknown {
  const json = answerJson(answer);
  try {
    return compileJsonPath(path)(json);
  } catch (cause) {
    const reason = cause instanceof Error ? `: ${cause.message}` : '';
    throw new CheckError(`Invalid JSONPath ${path}${reason}`, { cause });
  }
}

/** The text of the first node the XPath selects (or its value), or undefined when it selects nothing. */
export function xpathText(answer: Answer, expression: string): string | undefined {
  const outcome = evaluateXPath(expression, answer.view);
  if ('problem' in outcome) {
    throw new CheckError(
      outcome.problem === 'not-xml'
        ? 'The body is not XML'
        : `Invalid XPath ${expression}: ${outcome.reason}`,
    );
  }
  const { value } = outcome;
  return value.kind === 'nodes' ? (value.first ?? undefined) : String(value.value);
}
