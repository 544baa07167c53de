import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallResult, FunctionalResult } from '@aqa/plan';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_EXIT_CANNOT_RUN } from './functional-test';
import { remoteTest } from './remote-test';

/*
 * `aqa test --plan` against a server killed and started again mid-run (docs/adr/0016-crash-recovery.md):
 * a local stand-in for the server's functional calls that goes away for longer than five status polls,
 * then answers the run `interrupted` with the calls it judged before. The command rides out the
 * restart, prints those calls and why the run ended, writes the reports and exits 2.
 */

const ERROR = 'The server stopped during the run, so it did not finish';

const call = (n: number): CallResult => ({
  api_name: 'Health',
  method: 'GET',
  url: 'http://127.0.0.1:9/health',
  status_code: 200,
  response_time: 3 + n,
  success: true,
  validation_details: [
    { type: 'status_code', expected: '200', actual: '200', passed: true, message: 'status 200 as expected' },
  ],
});

const interrupted: FunctionalResult = {
  test_id: 'fc_1',
  plan_id: 'fp_1',
  test_name: 'Orders',
  description: '',
  status: 'interrupted',
  start_time: '2030-01-01T00:00:00.000Z',
  end_time: '2030-01-01T00:00:02.000Z',
  error: ERROR,
  summary: { total_requests: 2, successful_requests: 2, failed_requests: 0, validation_failures: 0 },
  validation_results: [call(1), call(2)],
  validation_results_total: 2,
  calls_omitted: 0,
  api_results: [],
  timeline_data: [],
};

/** The server's functional calls for one plan and one run: running until `restarted`, then interrupted. */
function standIn() {
  let restarted = false;
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const path = req.url ?? '';
    if (path === '/api/functional/get-test-config/fp_1')
      return reply(200, {
        test_name: 'Orders',
        apis: [{ name: 'Health', url: 'http://127.0.0.1:9/health' }],
      });
    if (path === '/api/functional/run-test') return reply(201, { test_id: 'fc_1' });
    if (path === '/api/functional/get-test-status/fc_1')
      return reply(200, { test_id: 'fc_1', status: restarted ? 'interrupted' : 'running' });
    if (path === '/api/functional/get-test-result/fc_1') return reply(200, interrupted);
    reply(404, { detail: 'Not found' });
  });
  return {
    async listen(port = 0): Promise<number> {
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    },
    async kill(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async restart(port: number): Promise<void> {
      restarted = true;
      await this.listen(port);
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('aqa test --plan, its server killed and started again during the run', () => {
  it('asks again until the server is back, prints the interrupted run’s calls and why, and exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aqa-remote-test-'));
    const stdout: string[] = [];
    const stderr: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => stdout.push(String(chunk)) > 0);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => stderr.push(String(chunk)) > 0);
    const server = standIn();
    const port = await server.listen();
    try {
      const running = remoteTest(
        { server: `http://127.0.0.1:${port}`, token: 'aqa_test' },
        { planId: 'fp_1', quiet: true, junit: join(dir, 'junit.xml') },
      );
      // Two polls answered running; then the server is gone for longer than five polls.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await server.kill();
      await new Promise((resolve) => setTimeout(resolve, 7000));
      await server.restart(port);
      const code = await running;

      expect(code).toBe(TEST_EXIT_CANNOT_RUN);
      expect(stderr.join('')).toMatch(/the server did not answer \(.+\); asking again for up to 60 s/);
      const printed = stdout.join('');
      expect(printed.match(/✓ Health/g)).toHaveLength(2);
      expect(printed).toMatch(/Orders: interrupted in /);
      expect(printed).toContain('calls 2: 2 passed, 0 failed');
      expect(printed).toContain(ERROR);
      expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('type="run interrupted"');
    } finally {
      await server.kill().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
