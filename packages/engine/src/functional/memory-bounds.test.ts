import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CAPTURE_SHOWN_CHARS,
  EVIDENCE_BODY_LIMIT_BYTES,
  EVIDENCE_PER_API,
  EVIDENCE_PER_RUN,
  FunctionalPlanSchema,
  type CallResult,
  type FunctionalPlan,
  type FunctionalPlanInput,
} from '@aqa/plan';
import { TestTarget, type RecordedRequest } from '../testing/target';
import { keptBodyBytes } from '../call/compile-call';
import { startFunctionalRun } from './functional-run';
import { closeAgents, httpCall, JUDGED_BODY_LIMIT_BYTES, userAgents } from '../call/http-call';

/*
 * What one functional run holds in memory (docs/adr/0024-memory-bounds.md): evidence for the first
 * failed calls only, each body cut at 64 KB; a captured value shown in part; a body no rule reads kept
 * only as far as its evidence needs; and the run's worker within its memory limit.
 */

const target = new TestTarget();
/** 100 KB of text: longer than what evidence keeps. */
const LONG_BODY = 'x'.repeat(100_000);
const LONG_TOKEN = 't'.repeat(5000);
/** About 9.5 MB of JSON that parses into five million empty arrays: far more than 64 MB of heap. */
const MANY_ARRAYS = `[${Array(4_900_000).fill('[]').join(',')}]`;

function answer(req: RecordedRequest, res: ServerResponse): void {
  if (req.path === '/token') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(JSON.stringify({ token: LONG_TOKEN }));
  }
  if (req.path === '/five-mb') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    return void res.end(Buffer.alloc(5 * 1024 * 1024, 'y'));
  }
  if (req.path === '/many-arrays') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(MANY_ARRAYS);
  }
  res.writeHead(500, { 'content-type': 'text/plain' });
  res.end(LONG_BODY);
}

beforeAll(async () => {
  target.route = answer;
  await target.start();
});
afterAll(async () => {
  await target.close();
});
beforeEach(() => target.reset());

function plan(over: Partial<FunctionalPlanInput>): FunctionalPlan {
  return FunctionalPlanSchema.parse({ test_name: 'memory bounds', think_time: 0, ...over });
}

async function run(p: FunctionalPlan, maxMemoryMb?: number) {
  const calls: CallResult[] = [];
  const outcome = await startFunctionalRun(p, {
    onCall: (c) => calls.push(c),
    ...(maxMemoryMb === undefined ? {} : { maxMemoryMb }),
  }).result;
  return { outcome, calls };
}

const failing = (name: string) => ({
  name,
  url: `${target.origin}/fail/${name}`,
  validations: [{ type: 'status_code' as const, expected_value: '200' }],
});

describe('evidence', () => {
  it(`keeps the request and response of the first ${EVIDENCE_PER_API} failed calls of an API`, async () => {
    const { outcome } = await run(plan({ iterations: 25, apis: [failing('only')] }));
    const kept = outcome.validation_results.map((call) => call.evidence !== undefined);
    expect(kept).toEqual([...Array<boolean>(20).fill(true), ...Array<boolean>(5).fill(false)]);
    // Each body cut at 64 KB and marked so.
    const first = outcome.validation_results[0]!.evidence!.response!;
    expect(first.body).toBe('x'.repeat(EVIDENCE_BODY_LIMIT_BYTES));
    expect(first.truncated).toBe(true);
  });

  it(`keeps the request and response of the first ${EVIDENCE_PER_RUN} failed calls of a run`, async () => {
    const apis = Array.from({ length: 10 }, (_, i) => failing(`api-${i + 1}`));
    const { outcome } = await run(plan({ iterations: 12, apis }));
    expect(outcome.summary.failed_requests).toBe(120);
    const kept = outcome.validation_results.map((call) => call.evidence !== undefined);
    // One user calls the APIs in order, so the first 100 calls are the first 100 failures.
    expect(kept).toEqual([...Array<boolean>(100).fill(true), ...Array<boolean>(20).fill(false)]);
    const bodies = outcome.validation_results.reduce(
      (sum, call) => sum + (call.evidence?.response?.body.length ?? 0),
      0,
    );
    expect(bodies).toBe(EVIDENCE_PER_RUN * EVIDENCE_BODY_LIMIT_BYTES);
  });
});

describe('captured values', () => {
  it(`show their first ${CAPTURE_SHOWN_CHARS} characters, and later calls send all of it`, async () => {
    const { outcome } = await run(
      plan({
        apis: [
          {
            name: 'Token',
            url: `${target.origin}/token`,
            captures: [{ name: 'tok', from: 'json_path', expression: '$.token' }],
          },
          {
            name: 'Use',
            url: `${target.origin}/use`,
            headers: { 'X-Token': '{{tok}}' },
            validations: [{ type: 'status_code', expected_value: '500' }],
          },
        ],
      }),
    );
    const shown = outcome.validation_results[0]!.captures![0]!.value!;
    expect(shown).toBe(
      `${'t'.repeat(CAPTURE_SHOWN_CHARS)}… (5,000 characters in all; the first 1,000 are shown)`,
    );
    expect(target.recorded.find((r) => r.path === '/use')?.headers['x-token']).toBe(LONG_TOKEN);
  });
});

describe('bodies read from the target', () => {
  it('keeps 64 KB of a body no rule or capture reads, and the judged limit of one that does', () => {
    const status = { type: 'status_code', expected_value: '200' } as const;
    const headers = { type: 'contains_text', expected_value: 'x', subject: 'headers' } as const;
    expect(keptBodyBytes([status, headers], [{ from: 'header' }])).toBe(EVIDENCE_BODY_LIMIT_BYTES);
    expect(keptBodyBytes([status, { type: 'contains_text' }], [])).toBe(JUDGED_BODY_LIMIT_BYTES);
    expect(keptBodyBytes([status], [{ from: 'regex' }])).toBe(JUDGED_BODY_LIMIT_BYTES);
  });

  it('reads the whole body, counting its size, and keeps only what it was asked to', async () => {
    const agents = userAgents(false);
    try {
      const outcome = await httpCall(
        { method: 'GET', url: new URL(`${target.origin}/five-mb`), headers: {}, body: undefined },
        {
          agents,
          guard: undefined,
          timeoutMs: 10_000,
          signal: new AbortController().signal,
          keepBytes: EVIDENCE_BODY_LIMIT_BYTES,
        },
      );
      if (outcome.kind !== 'answer') throw new Error(`no answer: ${JSON.stringify(outcome)}`);
      expect(outcome.answer.sizeBytes).toBe(5 * 1024 * 1024);
      expect(outcome.answer.body.length).toBe(EVIDENCE_BODY_LIMIT_BYTES);
    } finally {
      closeAgents(agents);
    }
  });

  it('judges response_size on the whole body of an API that keeps only 64 KB of it', async () => {
    const { outcome } = await run(
      plan({
        apis: [
          {
            name: 'Five MB',
            url: `${target.origin}/five-mb`,
            validations: [{ type: 'response_size', expected_value: '1000' }],
          },
        ],
      }),
    );
    expect(outcome.validation_results[0]!.validation_details[0]!.message).toBe(
      'expected at most 1000 bytes, got 5242880 bytes',
    );
  });
});

describe("the run's worker", () => {
  it('ends a run that needs more memory than its limit failed, naming the limit', async () => {
    const { outcome } = await run(
      plan({
        apis: [
          {
            name: 'Many arrays',
            url: `${target.origin}/many-arrays`,
            validations: [{ type: 'json_path', expected_value: '$[0]' }],
          },
        ],
      }),
      64,
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe(
      'The run needed more than 64 MB of memory, the most a functional run may use on this server, and was stopped; fewer concurrent users, or APIs whose rules read smaller bodies, need less',
    );
  });
});
