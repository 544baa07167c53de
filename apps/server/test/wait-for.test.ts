import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { waitFor, waitForRunEnd } from './wait-for';

describe('waitFor', () => {
  it('answers the first value the probe gives, asking again every `everyMs`', async () => {
    let asked = 0;
    const value = await waitFor('the third answer', () => (++asked === 3 ? 'three' : undefined), 5_000, 20);
    expect(value).toBe('three');
    expect(asked).toBe(3);
  });

  it('keeps falsy values other than undefined as answers', async () => {
    expect(await waitFor('a zero', () => Promise.resolve(0))).toBe(0);
    expect(await waitFor('false', () => false)).toBe(false);
  });

  it('fails naming what it waited for, read only on failure, so it can carry the last state', async () => {
    let last = 0;
    let named = 0;
    const waiting = waitFor(
      () => {
        named++;
        return `a count above 1000 (it is ${last})`;
      },
      () => {
        last++;
        return undefined;
      },
      60,
      10,
    );
    await expect(waiting).rejects.toThrow(/^timed out waiting for a count above 1000 \(it is \d+\)$/);
    expect(last).toBeGreaterThan(1);
    expect(named).toBe(1);
  });
});

describe('waitForRunEnd', () => {
  /** A server that answers the given (status code, body) pairs in turn, and records what it was asked. */
  function answering(...answers: [number, object][]) {
    const asked: string[] = [];
    return {
      asked,
      request: (options: { method: 'GET'; url: string; token: string }) => {
        asked.push(`${options.method} ${options.url} ${options.token}`);
        const [statusCode, body] = answers[Math.min(asked.length, answers.length) - 1]!;
        const text = JSON.stringify(body);
        return Promise.resolve({ statusCode, body: text, json: <T>() => JSON.parse(text) as T });
      },
    };
  }

  it("reads the family's result route until the run is neither running nor processing", async () => {
    const server = answering(
      [200, { status: 'running' }],
      [200, { status: 'processing' }],
      [200, { status: 'stopped', n: 3 }],
    );
    expect(await waitForRunEnd(server, 'tok', 'load', 'run_1', 5_000, 1)).toEqual({
      status: 'stopped',
      n: 3,
    });
    expect(server.asked).toEqual([
      'GET /api/get-test-result/run_1 tok',
      'GET /api/get-test-result/run_1 tok',
      'GET /api/get-test-result/run_1 tok',
    ]);
    const functional = answering([200, { status: 'failed' }]);
    await waitForRunEnd(functional, 'tok', 'functional', 'fc_1');
    expect(functional.asked).toEqual(['GET /api/functional/get-test-result/fc_1 tok']);
  });

  it('fails at once on an answer other than 200, and with the last answer on a timeout', async () => {
    await expect(
      waitForRunEnd(answering([404, { code: 'NOT_FOUND' }]), 'tok', 'load', 'run_2'),
    ).rejects.toThrow('GET /api/get-test-result/run_2: 404 {"code":"NOT_FOUND"}');
    await expect(
      waitForRunEnd(answering([200, { status: 'running', second: 4 }]), 'tok', 'load', 'run_3', 50, 10),
    ).rejects.toThrow('timed out waiting for run run_3 to end: {"status":"running","second":4}');
  });
});

describe('the server tests', () => {
  // One polling helper (docs/style.md "Tests"): a deadline or an endless loop written by hand is a second one.
  it('wait through waitFor, with no deadline or endless loop of their own', () => {
    const folder = fileURLToPath(new URL('.', import.meta.url));
    const ownDeadlines = readdirSync(folder)
      .filter((name) => name.endsWith('.ts') && name !== 'wait-for.ts' && name !== 'wait-for.test.ts')
      .flatMap((name) =>
        readFileSync(join(folder, name), 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            /Date\.now\(\)\s*\+|for \(;;\)/.test(line) ? [`${name}:${i + 1}: ${line.trim()}`] : [],
          ),
      );
    expect(ownDeadlines).toEqual([]);
  });
});
