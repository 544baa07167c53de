import { contract } from '@aqa/contract';
import type { AuditEntry, AuditList } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditRepository } from '../src/repositories/audit.repository';
import { AuditService } from '../src/services/audit/audit.service';
import { AUDITED_ROUTES, NOT_AUDITED } from '../src/services/audit/audited-routes';
import { startCountingTarget, type CountingTarget } from './counting-target';
import {
  closeTestServer,
  startServerWithTwoUsers,
  testDatabase,
  type SignedInUser,
  type TestServer,
} from './helpers';

/*
 * The audit log (docs/adr/0034-audit-log.md) through real calls on a real store: what each call that
 * changes something records, what a refused call does not, who reads it, its CSV, and its retention.
 */

let server: TestServer;
let target: CountingTarget;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  target = await startCountingTarget();
  ({ server, alice, bob } = await startServerWithTwoUsers());
});

afterAll(async () => {
  await closeTestServer(server);
  await target?.close();
});

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown) {
  return server.request({ method, url, token, ...(body === undefined ? {} : { body }) });
}

async function entriesOf(token: string): Promise<AuditEntry[]> {
  const response = await call('GET', '/api/audit?limit=500', token);
  expect(response.statusCode).toBe(200);
  return response.json<AuditList>().entries;
}

describe('the audit log', () => {
  it('knows every call that changes something: audited, or left out with a reason', () => {
    const changing = Object.values(contract)
      .flatMap((routes) => Object.values(routes as Record<string, { method: string; url: string }>))
      .filter((route) => route.method !== 'GET')
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    const known = [...Object.keys(AUDITED_ROUTES), ...Object.keys(NOT_AUDITED)].sort();
    expect(known).toEqual(changing);
  });

  it('records who created, changed, ran, stopped and deleted what, newest first, and nothing a refused call did', async () => {
    const plan = {
      test_name: 'Audited checkout',
      iterations: 1,
      think_time: 0,
      apis: [{ name: 'Home', url: `${target.origin}/audit/home` }],
    };
    const saved = await call('POST', '/api/functional/save-config', alice.token, plan);
    const planId = saved.json<{ id: string }>().id;
    await call('PUT', `/api/functional/update-config/${planId}`, alice.token, {
      ...plan,
      test_name: 'Renamed',
    });
    const ran = await call('POST', '/api/functional/run-test', alice.token, { ...plan, plan_id: planId });
    const runId = ran.json<{ test_id: string }>().test_id;
    const token = await call('POST', '/api/tokens', alice.token, { name: 'Nightly CI' });
    const ciToken = token.json<{ id: string; token: string }>();
    // A call made with the API token says so.
    const schedule = await call('POST', '/api/schedules', ciToken.token, {
      plan_id: planId,
      cron: '0 2 * * *',
    });
    expect(schedule.statusCode).toBe(201);
    // Refused calls record nothing: Bob deleting Alice's plan, Alice sending a bad cron.
    expect((await call('DELETE', `/api/functional/delete-config/${planId}`, bob.token)).statusCode).toBe(404);
    expect(
      (await call('POST', '/api/schedules', alice.token, { plan_id: planId, cron: 'x' })).statusCode,
    ).toBe(400);
    // Reading and parsing are not changes.
    await call('GET', '/api/functional/get-test-configs', alice.token);
    await call('POST', '/api/messages/read', alice.token, {});

    const entries = await entriesOf(alice.token);
    expect(entries.map((e) => [e.action, e.object, e.object_id, e.object_name, e.via, e.route])).toEqual([
      ['created', 'schedule', schedule.json<{ id: string }>().id, null, 'api_token', 'POST /api/schedules'],
      ['created', 'api_token', ciToken.id, 'Nightly CI', 'session', 'POST /api/tokens'],
      ['ran', 'functional_run', runId, 'Audited checkout', 'session', 'POST /api/functional/run-test'],
      ['changed', 'functional_plan', planId, 'Renamed', 'session', 'PUT /api/functional/update-config/:id'],
      [
        'created',
        'functional_plan',
        planId,
        'Audited checkout',
        'session',
        'POST /api/functional/save-config',
      ],
    ]);
    expect(entries.every((e) => e.actor_email === alice.email && e.ip !== '')).toBe(true);
    // Bob's log has none of it.
    expect(await entriesOf(bob.token)).toEqual([]);
  });

  it('exports the log as CSV, quoting what needs it and defusing spreadsheet formulas', async () => {
    await call('POST', '/api/tokens', alice.token, { name: '=HYPERLINK("x","y"), see' });
    const response = await call('GET', '/api/audit/export', alice.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, first] = response.body.split('\r\n');
    expect(header).toBe('at,actor,via,action,object,object_id,object_name,route,ip');
    expect(first).toContain(`,${alice.email},session,created,api_token,`);
    expect(first).toContain(`"'=HYPERLINK(""x"",""y""), see"`);
  });

  it('deletes entries older than the retention', async () => {
    const db = testDatabase(server);
    try {
      const before = (await entriesOf(alice.token)).length;
      expect(before).toBeGreaterThan(0);
      const twoDaysOn = () => server.clock.nowMs + 2 * 24 * 3600_000;
      const oneDay = new AuditService(new AuditRepository(db), twoDaysOn, server.app.log, 1);
      expect(await oneDay.prune()).toBeGreaterThanOrEqual(before);
      expect(await entriesOf(alice.token)).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
