import { type Schedule, nextRunTimes } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScheduleRepository } from '../src/repositories/schedule.repository';
import { Scheduler } from '../src/services/schedules/scheduler';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { startReceiver } from './notification-receiver';
import {
  closeTestServer,
  startServerWithTwoUsers,
  testDatabase,
  type SignedInUser,
  type TestServer,
} from './helpers';
import { waitFor } from './wait-for';

/*
 * Schedules (docs/adr/0031-schedules.md) through their calls, on a real store, firing real runs against a
 * local target that counts what it receives. The server's clock is moved by hand; its scheduler looks
 * every 20 ms instead of every 15 s.
 */

let server: TestServer;
let target: CountingTarget;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  target = await startCountingTarget();
  ({ server, alice, bob } = await startServerWithTwoUsers({}, { scheduler: { tickMs: 20 } }));
});

afterAll(async () => {
  await closeTestServer(server);
  await target?.close();
});

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown) {
  return server.request({ method, url, token, ...(body === undefined ? {} : { body }) });
}

async function saveApiPlan(token: string, path: string): Promise<string> {
  const saved = await call('POST', '/api/functional/save-config', token, {
    test_name: `Nightly ${path}`,
    concurrent_users: 1,
    iterations: 2,
    think_time: 0,
    apis: [{ name: 'Health', url: `${target.origin}/${path}/health` }],
  });
  expect(saved.statusCode).toBe(201);
  return saved.json<{ id: string }>().id;
}

async function schedulesOf(token: string): Promise<Schedule[]> {
  return (await call('GET', '/api/schedules', token)).json<{ schedules: Schedule[] }>().schedules;
}

/** The schedule once its last run is at `at`. */
function lastRunAt(token: string, id: string, at: string): Promise<Schedule> {
  let last: Schedule | undefined;
  return waitFor(
    () => `schedule ${id} to come round at ${at}: ${JSON.stringify(last?.last_run)}`,
    async () => {
      last = (await schedulesOf(token)).find((schedule) => schedule.id === id);
      return last?.last_run?.at === at ? last : undefined;
    },
    30_000,
    20,
  );
}

describe('schedules', () => {
  it('refuses what does not read, naming the field, and another user’s plan as not found', async () => {
    const planId = await saveApiPlan(alice.token, 'refused');
    const fields = await call('POST', '/api/schedules', alice.token, {
      plan_id: planId,
      cron: '0 2 * *',
      timezone: 'Asia/Seoul',
    });
    expect(fields.statusCode).toBe(400);
    expect(fields.json<{ detail: string }>().detail).toContain('cron: A cron expression has five fields');
    const zone = await call('POST', '/api/schedules', alice.token, {
      plan_id: planId,
      cron: '0 2 * * 1-5',
      timezone: 'Seoul',
    });
    expect(zone.statusCode).toBe(400);
    expect(zone.json<{ detail: string }>().detail).toContain('"Seoul" is not a time zone');
    const foreign = await call('POST', '/api/schedules', bob.token, { plan_id: planId, cron: '0 2 * * *' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<{ code: string }>().code).toBe('PLAN_NOT_FOUND');
    expect(await schedulesOf(alice.token)).toEqual([]);
  });

  it('answers the next five times in the time zone, and is the owner’s alone', async () => {
    const planId = await saveApiPlan(alice.token, 'listed');
    const created = await call('POST', '/api/schedules', alice.token, {
      plan_id: planId,
      cron: '0 2 * * 1-5',
      timezone: 'Asia/Seoul',
    });
    expect(created.statusCode).toBe(201);
    const schedule = created.json<Schedule>();
    expect(schedule).toMatchObject({
      plan_id: planId,
      plan_kind: 'functional',
      plan_name: 'Nightly listed',
      test_type: 'api',
      description: 'At 02:00, Monday through Friday (Asia/Seoul)',
      enabled: true,
      last_run: null,
    });
    expect(schedule.next_runs).toEqual(nextRunTimes('0 2 * * 1-5', 'Asia/Seoul', server.clock.nowMs));
    expect(schedule.next_runs).toHaveLength(5);

    expect((await schedulesOf(bob.token)).map((s) => s.id)).not.toContain(schedule.id);
    expect(
      (await call('PUT', `/api/schedules/${schedule.id}`, bob.token, { enabled: false })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/schedules/${schedule.id}`, bob.token)).statusCode).toBe(404);

    const off = await call('PUT', `/api/schedules/${schedule.id}`, alice.token, { enabled: false });
    expect(off.json<Schedule>()).toMatchObject({ enabled: false, next_runs: [], cron: '0 2 * * 1-5' });
    // Deleting the plan deletes its schedules.
    expect((await call('DELETE', `/api/functional/delete-config/${planId}`, alice.token)).statusCode).toBe(
      200,
    );
    expect((await schedulesOf(alice.token)).map((s) => s.id)).not.toContain(schedule.id);
  });

  it('starts the plan’s run when its time comes, skips while that run still goes, and says when it missed a time', async () => {
    const planId = await saveApiPlan(alice.token, 'fired');
    const created = await call('POST', '/api/schedules', alice.token, {
      plan_id: planId,
      cron: '*/5 * * * *',
    });
    const schedule = created.json<Schedule>();
    const [first, second] = schedule.next_runs as [string, string];

    server.clock.nowMs = Date.parse(first) + 500;
    const fired = await lastRunAt(alice.token, schedule.id, first);
    expect(fired.last_run).toMatchObject({ outcome: 'started', reason: null });
    const runId = fired.last_run!.run_id!;
    const run = await waitFor(
      `scheduled run ${runId} to end`,
      async () => {
        const result = (await call('GET', `/api/functional/get-test-result/${runId}`, alice.token)).json<{
          status: string;
          plan_id: string;
          summary: { total_requests: number };
        }>();
        return result.status === 'running' ? undefined : result;
      },
      30_000,
      50,
    );
    expect(run).toMatchObject({ status: 'completed', plan_id: planId, summary: { total_requests: 2 } });
    expect((await target.counts()).byPath['/fired/health']).toBe(2);
    expect(fired.next_runs[0]).toBe(second);

    // A run of the plan still going: the schedule's time is skipped, and it says which run.
    const going = await server.request({
      method: 'POST',
      url: '/api/functional/run-test',
      token: alice.token,
      body: {
        test_name: 'Slow by hand',
        plan_id: planId,
        concurrent_users: 1,
        iterations: 1000,
        think_time: 1,
        apis: [{ name: 'Health', url: `${target.origin}/fired/slow` }],
      },
    });
    expect(going.statusCode).toBe(201);
    const goingId = going.json<{ test_id: string }>().test_id;
    server.clock.nowMs = Date.parse(second) + 500;
    const skipped = await lastRunAt(alice.token, schedule.id, second);
    expect(skipped.last_run).toMatchObject({ outcome: 'skipped', run_id: goingId });
    expect(skipped.last_run?.reason).toBe(`The previous run of this plan (${goingId}) was still going`);
    await call('POST', `/api/functional/stop-test/${goingId}`, alice.token);

    // The server "was down" for an hour: the time is recorded as missed, not run an hour late.
    const third = skipped.next_runs[0]!;
    server.clock.nowMs = Date.parse(third) + 60 * 60_000;
    const missed = await lastRunAt(alice.token, schedule.id, third);
    expect(missed.last_run).toMatchObject({ outcome: 'missed', run_id: null });
    expect(Date.parse(missed.next_runs[0]!)).toBeGreaterThan(server.clock.nowMs);
    expect((await target.counts()).byPath['/fired/health']).toBe(2);
  });

  it("tells the schedule's own notification channels of the runs it starts, and refuses a channel that is not the owner's", async () => {
    const receiver = await startReceiver('schedule-secret-0123456789');
    try {
      const channel = await call('POST', '/api/notification-channels', alice.token, {
        type: 'webhook',
        url: `${receiver.origin}/hook`,
        secret: 'schedule-secret-0123456789',
        events: ['run_failed'],
      });
      expect(channel.statusCode, channel.body).toBe(201);
      const channelId = channel.json<{ id: string }>().id;
      const saved = await call('POST', '/api/functional/save-config', alice.token, {
        test_name: 'Nightly failing',
        iterations: 1,
        think_time: 0,
        apis: [{ name: 'Broken', url: `${target.origin}/fail/told` }],
      });
      const planId = saved.json<{ id: string }>().id;
      const foreign = await call('POST', '/api/schedules', bob.token, {
        plan_id: planId,
        cron: '* * * * *',
        channel_ids: [channelId],
      });
      expect(foreign.statusCode).toBe(404);
      const notMine = await call('POST', '/api/schedules', alice.token, {
        plan_id: planId,
        cron: '* * * * *',
        channel_ids: ['nch_not_hers'],
      });
      expect(notMine.statusCode).toBe(400);
      expect(notMine.json<{ detail: string }>().detail).toContain(
        'channel_ids: names a notification channel you do not have',
      );

      const created = await call('POST', '/api/schedules', alice.token, {
        plan_id: planId,
        cron: '* * * * *',
        channel_ids: [channelId, channelId],
      });
      const schedule = created.json<Schedule>();
      expect(schedule.channel_ids).toEqual([channelId]);
      const [due] = schedule.next_runs as [string];
      server.clock.nowMs = Date.parse(due) + 500;
      const fired = await lastRunAt(alice.token, schedule.id, due);
      const runId = fired.last_run!.run_id!;
      const told = await waitFor(
        'the webhook of the schedule to be told of the failed run',
        () => receiver.received.find((got) => got.body.includes(runId)),
        30_000,
        50,
      );
      expect(told.signatureValid).toBe(true);
      expect(JSON.parse(told.body)).toMatchObject({
        event: 'run_failed',
        run: { id: runId, plan_id: planId },
      });
      // The plan itself has no channels: a run started by hand tells no one.
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('fires 100 schedules that come round in the same minute once each, with two replicas looking at once', async () => {
    // Two replicas: two schedulers, each with its own connection to the one store.
    const replicaA = testDatabase(server);
    const replicaB = testDatabase(server);
    try {
      const owner = await replicaA
        .selectFrom('users')
        .select('id')
        .where('email_normalized', '=', alice.email.toLowerCase())
        .executeTakeFirstOrThrow();
      const at = new Date(server.clock.nowMs + 24 * 3_600_000).toISOString();
      const ids = Array.from({ length: 100 }, (_, i) => `sched_replica_${i}`);
      await replicaA
        .insertInto('schedules')
        .values(
          ids.map((id) => ({
            id,
            user_id: owner.id,
            workspace_id: owner.id,
            plan_id: `plan_${id}`,
            plan_kind: 'functional',
            cron: '* * * * *',
            timezone: 'UTC',
            enabled: 1,
            next_run_at: at,
            last_run_at: null,
            last_outcome: null,
            last_run_id: null,
            last_reason: null,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
      const started: string[] = [];
      const clock = () => Date.parse(at) + 1_000;
      const scheduler = (db: typeof replicaA, name: string) =>
        new Scheduler(
          new ScheduleRepository(db),
          clock,
          ({ planId }) => {
            started.push(planId);
            return Promise.resolve(`${name}_${planId}`);
          },
          server.app.log,
          { tickMs: 60_000, catchUpMs: 60_000, batch: 200 },
        );
      const [a, b] = [scheduler(replicaA, 'a'), scheduler(replicaB, 'b')];
      await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
      expect(started).toHaveLength(100);
      expect(new Set(started).size).toBe(100);
      const rows = await replicaA.selectFrom('schedules').selectAll().where('id', 'in', ids).execute();
      expect(rows.every((row) => row.last_outcome === 'started' && row.next_run_at! > at)).toBe(true);
    } finally {
      await replicaA.destroy();
      await replicaB.destroy();
    }
  });
});
