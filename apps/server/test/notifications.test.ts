import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { startCountingTarget, type CountingTarget } from './counting-target';
import {
  closeTestServer,
  makeTempDir,
  registerAndLogin,
  removeDir,
  startServerWithTwoUsers,
  startTestServer,
  testDatabase,
  type SignedInUser,
  type TestServer,
} from './helpers';
import { downPort, startReceiver, type Receiver } from './notification-receiver';
import { waitFor, waitForRunEnd } from './wait-for';

/*
 * Notifications out (docs/adr/0032-notifications-out.md) against real receivers: a local HTTP server
 * that verifies each body's HMAC, one that is down, one that answers 500, a local SMTP server, and a
 * real API test run whose failure is delivered. Stored in a real SQLite file (or PostgreSQL).
 */

const SECRET = 'a-receiver-secret-of-some-length';
const PUBLIC_URL = 'https://qa.example.test';
const ENV = { PUBLIC_URL, NOTIFY_RETRY_DELAYS_MS: '100,200', EXTERNAL_TOOLS: 'off' };

interface Delivery {
  id: string;
  run_id: string | null;
  event: string;
  status: string;
  attempts: { attempt: number; status: string; http_status: number | null; answer: string }[];
}

let server: TestServer;
let alice: SignedInUser;
let bob: SignedInUser;
let receiver: Receiver;
let target: CountingTarget;

beforeAll(async () => {
  receiver = await startReceiver(SECRET);
  target = await startCountingTarget();
  ({ server, alice, bob } = await startServerWithTwoUsers(ENV));
});

afterAll(async () => {
  await closeTestServer(server);
  await receiver?.close();
  await target?.close();
});

function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  token: string,
  body?: unknown,
  on = server,
) {
  return on.request({ method, url, token, ...(body === undefined ? {} : { body }) });
}

async function createChannel(token: string, body: Record<string, unknown>, on = server): Promise<string> {
  const created = await call('POST', '/api/notification-channels', token, body, on);
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ id: string }>().id;
}

async function deliveries(token: string, channel: string, on = server): Promise<Delivery[]> {
  const log = await call('GET', `/api/notification-channels/${channel}/deliveries`, token, undefined, on);
  expect(log.statusCode, log.body).toBe(200);
  return log.json<{ deliveries: Delivery[] }>().deliveries;
}

/** Waits for the channel's newest delivery to be sent or failed. */
function settled(token: string, channel: string, on = server): Promise<Delivery> {
  return waitFor(`channel ${channel}'s delivery to settle`, async () => {
    const [newest] = await deliveries(token, channel, on);
    return newest !== undefined && (newest.status === 'sent' || newest.status === 'failed')
      ? newest
      : undefined;
  });
}

describe('channels', () => {
  it('creates, lists (the secret never whole), refuses bad input naming the field, and hides them from another user', async () => {
    const id = await createChannel(alice.token, {
      type: 'webhook',
      url: `${receiver.origin}/hook`,
      secret: SECRET,
      events: ['run_failed', 'recovered'],
      name: 'Team hook',
    });
    const list = await call('GET', '/api/notification-channels', alice.token);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(SECRET);
    const channel = list
      .json<{ channels: { id: string; secret_hint: string; events: string[]; name: string }[] }>()
      .channels.find((c) => c.id === id);
    expect(channel).toMatchObject({
      name: 'Team hook',
      secret_hint: `…${SECRET.slice(-4)}`,
      events: ['run_failed', 'recovered'],
    });

    const bad = await call('POST', '/api/notification-channels', alice.token, {
      type: 'pager',
      url: '',
      events: [],
    });
    expect(bad.statusCode).toBe(400);
    const detail = bad.json<{ detail: string }>().detail;
    expect(detail).toContain('type:');
    expect(detail).toContain('url:');
    expect(detail).toContain('events:');
    const notHttp = await call('POST', '/api/notification-channels', alice.token, {
      type: 'slack',
      url: 'ftp://hooks.example.test/x',
      events: ['run_failed'],
    });
    expect(notHttp.json<{ detail: string }>().detail).toMatch(/^url: /);
    const secretOnSlack = await call('POST', '/api/notification-channels', alice.token, {
      type: 'slack',
      url: `${receiver.origin}/slack`,
      secret: SECRET,
      events: ['run_failed'],
    });
    expect(secretOnSlack.json<{ detail: string }>().detail).toMatch(/^secret: /);

    // Another user's channel is not found, whatever the call.
    expect((await call('DELETE', `/api/notification-channels/${id}`, bob.token)).statusCode).toBe(404);
    expect((await call('GET', `/api/notification-channels/${id}/deliveries`, bob.token)).statusCode).toBe(
      404,
    );
    expect((await call('POST', `/api/notification-channels/${id}/test`, bob.token)).statusCode).toBe(404);
    const bobs = await call('GET', '/api/notification-channels', bob.token);
    expect(bobs.body).not.toContain(id);
  });

  it('refuses at creation an address the target guard refuses', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://metadata.google.internal/hook']) {
      const refused = await call('POST', '/api/notification-channels', alice.token, {
        type: 'webhook',
        url,
        events: ['run_failed'],
      });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json<{ code: string }>().code).toBe('TARGET_REFUSED');
    }
  });

  it('deletes a channel with its log and its place in the plans', async () => {
    const id = await createChannel(alice.token, {
      type: 'webhook',
      url: `${receiver.origin}/gone`,
      events: ['run_failed'],
    });
    const saved = await call('POST', '/api/functional/save-config', alice.token, {
      test_name: 'Plan told on a channel',
      apis: [{ name: 'One', url: `${target.origin}/one` }],
    });
    const planId = saved.json<{ id: string }>().id;
    const set = await call('PUT', `/api/functional/plans/${planId}/notifications`, alice.token, {
      channel_ids: [id],
    });
    expect(set.json()).toEqual({ channel_ids: [id] });
    expect(
      (await call('PUT', `/api/functional/plans/${planId}/notifications`, bob.token, { channel_ids: [] }))
        .statusCode,
    ).toBe(404);
    const bobsChannel = await createChannel(bob.token, {
      type: 'webhook',
      url: `${receiver.origin}/bob`,
      events: ['run_failed'],
    });
    const foreign = await call('PUT', `/api/functional/plans/${planId}/notifications`, alice.token, {
      channel_ids: [bobsChannel],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json<{ detail: string }>().detail).toMatch(/^channel_ids: /);
    expect((await call('DELETE', `/api/notification-channels/${id}`, alice.token)).statusCode).toBe(204);
    const after = await call('GET', `/api/functional/plans/${planId}/notifications`, alice.token);
    expect(after.json()).toEqual({ channel_ids: [] });
  });
});

describe('deliveries', () => {
  it('sends a signed test notice the receiver verifies, and logs its answer', async () => {
    const id = await createChannel(alice.token, {
      type: 'webhook',
      url: `${receiver.origin}/signed`,
      secret: SECRET,
      events: ['run_failed'],
    });
    const test = await call('POST', `/api/notification-channels/${id}/test`, alice.token);
    expect(test.statusCode, test.body).toBe(202);
    const delivery = await settled(alice.token, id);
    expect(delivery).toMatchObject({ event: 'test', status: 'sent' });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status: 'sent', http_status: 200, answer: 'ok' }),
    ]);
    const got = receiver.received.filter((r) => r.path === '/signed');
    expect(got).toHaveLength(1);
    expect(got[0]?.signatureValid).toBe(true);
    expect(JSON.parse(got[0]?.body ?? '')).toMatchObject({
      event: 'test',
      url: `${PUBLIC_URL}/settings/notifications`,
    });
  });

  it('writes Slack and Teams messages in their own formats', async () => {
    const slack = await createChannel(alice.token, {
      type: 'slack',
      url: `${receiver.origin}/slack`,
      events: ['run_failed'],
    });
    const teams = await createChannel(alice.token, {
      type: 'teams',
      url: `${receiver.origin}/teams`,
      events: ['run_failed'],
    });
    await call('POST', `/api/notification-channels/${slack}/test`, alice.token);
    await call('POST', `/api/notification-channels/${teams}/test`, alice.token);
    await settled(alice.token, slack);
    await settled(alice.token, teams);
    const slackBody = JSON.parse(receiver.received.find((r) => r.path === '/slack')?.body ?? '{}') as {
      text: string;
      blocks: { type: string }[];
    };
    expect(slackBody.text).toContain('AnybodyQA test notification');
    expect(slackBody.blocks.map((b) => b.type)).toEqual(['section', 'context', 'actions']);
    const teamsBody = JSON.parse(receiver.received.find((r) => r.path === '/teams')?.body ?? '{}') as {
      type: string;
      attachments: { contentType: string; content: { type: string } }[];
    };
    expect(teamsBody.type).toBe('message');
    expect(teamsBody.attachments[0]).toMatchObject({
      contentType: 'application/vnd.microsoft.card.adaptive',
      content: { type: 'AdaptiveCard' },
    });
  });

  it('retries a receiver that is down, logging each attempt, and marks the delivery failed', async () => {
    const port = await downPort();
    const id = await createChannel(alice.token, {
      type: 'webhook',
      url: `http://127.0.0.1:${port}/down`,
      events: ['run_failed'],
    });
    await call('POST', `/api/notification-channels/${id}/test`, alice.token);
    const delivery = await settled(alice.token, id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts.map((a) => a.status)).toEqual(['retrying', 'retrying', 'failed']);
    for (const attempt of delivery.attempts) {
      expect(attempt.http_status).toBeNull();
      expect(attempt.answer).toContain('ECONNREFUSED');
    }
    const list = await call('GET', '/api/notification-channels', alice.token);
    const listed = list.json<{ channels: { id: string; last_delivery: { status: string } | null }[] }>()
      .channels;
    expect(listed.find((c) => c.id === id)?.last_delivery?.status).toBe('failed');
  });

  it('marks failing a receiver that answers 500 three times', async () => {
    const broken = await startReceiver(SECRET);
    broken.answerWith([500]);
    try {
      const id = await createChannel(alice.token, {
        type: 'webhook',
        url: `${broken.origin}/broken`,
        secret: SECRET,
        events: ['run_failed'],
      });
      await call('POST', `/api/notification-channels/${id}/test`, alice.token);
      const delivery = await settled(alice.token, id);
      expect(delivery.status).toBe('failed');
      expect(delivery.attempts.map((a) => [a.status, a.http_status])).toEqual([
        ['retrying', 500],
        ['retrying', 500],
        ['failed', 500],
      ]);
      expect(delivery.attempts[2]?.answer).toBe('receiver broke (500)');
      expect(broken.received).toHaveLength(3);
      // The same body each time, each signed.
      expect(new Set(broken.received.map((r) => r.body)).size).toBe(1);
      expect(broken.received.every((r) => r.signatureValid === true)).toBe(true);
    } finally {
      await broken.close();
    }
  });

  it('tells a real API run that failed, and its recovery, on the channels chosen for its plan', async () => {
    const id = await createChannel(alice.token, {
      type: 'webhook',
      url: `${receiver.origin}/runs`,
      secret: SECRET,
      events: ['run_failed', 'recovered'],
    });
    const plan = (path: string) => ({
      test_name: 'Nightly API',
      apis: [{ name: 'Call', url: `${target.origin}/${path}` }],
    });
    const saved = await call('POST', '/api/functional/save-config', alice.token, plan('fail/once'));
    const planId = saved.json<{ id: string }>().id;
    await call('PUT', `/api/functional/plans/${planId}/notifications`, alice.token, { channel_ids: [id] });

    const run = async (path: string) => {
      // The server's clock is the test's: each run starts a second after the last, as runs do.
      server.clock.advance(1000);
      const started = await call('POST', '/api/functional/run-test', alice.token, {
        ...plan(path),
        plan_id: planId,
      });
      expect(started.statusCode, started.body).toBe(201);
      const testId = started.json<{ test_id: string }>().test_id;
      await waitForRunEnd(server, alice.token, 'functional', testId);
      return testId;
    };
    const failed = await run('fail/once');
    // Generous: on a machine busy with the whole suite a delivery can wait for the event loop.
    const first = await waitFor(
      'the failed run told',
      () => receiver.received.find((r) => r.path === '/runs'),
      30_000,
    );
    expect(first.signatureValid).toBe(true);
    const told = JSON.parse(first.body) as {
      event: string;
      run: {
        id: string;
        kind: string;
        plan_name: string;
        status: string;
        url: string;
        summary: { failed_requests: number };
      };
    };
    expect(told.event).toBe('run_failed');
    expect(told.run).toMatchObject({
      id: failed,
      kind: 'api',
      plan_name: 'Nightly API',
      url: `${PUBLIC_URL}/functional-test-result/${failed}`,
      summary: { failed_requests: 1 },
    });

    const passedRun = await run('ok');
    const second = await waitFor(
      'the recovery told',
      () => receiver.received.filter((r) => r.path === '/runs')[1],
      30_000,
    );
    expect(JSON.parse(second.body)).toMatchObject({
      event: 'recovered',
      run: { id: passedRun, status: 'completed' },
    });
    // A run that passes after one that passed is told nothing.
    await run('ok');
    const log = await deliveries(alice.token, id);
    expect(log.map((d) => d.event)).toEqual(['recovered', 'run_failed']);
  });

  it('tells a real load run that broke its threshold, linking its result', async () => {
    const id = await createChannel(alice.token, {
      type: 'webhook',
      url: `${receiver.origin}/load`,
      secret: SECRET,
      events: ['threshold_failed'],
    });
    const saved = await call('POST', '/api/save-test-plan', alice.token, {
      name: 'Nightly load',
      tool: 'k6',
      concurrent_users: 1,
      duration: 1,
      thresholds: ['error_rate<1%'],
      urls: [{ method: 'GET', url: `${target.origin}/fail/load`, thinkTime: '50ms', name: 'Broken' }],
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const planId = saved.json<{ id: string }>().id;
    const chosen = await call('PUT', `/api/plans/${planId}/notifications`, alice.token, {
      channel_ids: [id],
    });
    expect(chosen.json()).toEqual({ channel_ids: [id] });
    const started = await call('POST', '/api/run-test', alice.token, {
      plan_id: planId,
      duration_seconds: 1,
    });
    expect(started.statusCode, started.body).toBe(201);
    const runId = started.json<{ test_id: string }>().test_id;
    await waitForRunEnd(server, alice.token, 'load', runId, 30_000);
    const got = await waitFor('the broken threshold told', () =>
      receiver.received.find((r) => r.path === '/load'),
    );
    expect(got.signatureValid).toBe(true);
    const told = JSON.parse(got.body) as {
      event: string;
      run: { kind: string; status: string; url: string; summary: { error_rate: number } };
    };
    expect(told.event).toBe('threshold_failed');
    expect(told.run).toMatchObject({
      kind: 'load',
      status: 'completed',
      url: `${PUBLIC_URL}/test-result/${runId}`,
    });
    expect(told.run.summary.error_rate).toBeGreaterThan(1);
  }, 40_000);

  it('checks the guard again at delivery: a refused address stored by an older version fails at once', async () => {
    const id = await createChannel(alice.token, {
      type: 'webhook',
      url: `${receiver.origin}/later`,
      events: ['run_failed'],
    });
    const db = testDatabase(server);
    try {
      await db
        .updateTable('notification_channels')
        .set({ url: 'http://169.254.169.254/hook' })
        .where('id', '=', id)
        .execute();
    } finally {
      await db.destroy();
    }
    const saved = await call('POST', '/api/functional/save-config', alice.token, {
      test_name: 'Guarded',
      apis: [{ name: 'Call', url: `${target.origin}/fail/guarded` }],
    });
    const planId = saved.json<{ id: string }>().id;
    await call('PUT', `/api/functional/plans/${planId}/notifications`, alice.token, { channel_ids: [id] });
    const started = await call('POST', '/api/functional/run-test', alice.token, {
      test_name: 'Guarded',
      apis: [{ name: 'Call', url: `${target.origin}/fail/guarded` }],
      plan_id: planId,
    });
    await waitForRunEnd(server, alice.token, 'functional', started.json<{ test_id: string }>().test_id);
    const delivery = await settled(alice.token, id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]?.answer).toContain('169.254.169.254');
    // The test button is refused before anything is queued.
    expect((await call('POST', `/api/notification-channels/${id}/test`, alice.token)).statusCode).toBe(403);
  });
});

describe('across a restart', () => {
  it('resumes pending and retrying deliveries from the same database', async () => {
    const dataDir = makeTempDir();
    const port = await downPort();
    let first: TestServer | undefined = await startTestServer(
      { ...ENV, NOTIFY_RETRY_DELAYS_MS: '1500' },
      dataDir,
    );
    let second: TestServer | undefined;
    let back: Receiver | undefined;
    try {
      const { token } = await registerAndLogin(first);
      const id = await createChannel(
        token,
        { type: 'webhook', url: `http://127.0.0.1:${port}/back`, secret: SECRET, events: ['run_failed'] },
        first,
      );
      await call('POST', `/api/notification-channels/${id}/test`, token, undefined, first);
      await waitFor('the first attempt to fail', async () => {
        const [d] = await deliveries(token, id, first);
        return d?.status === 'retrying' ? d : undefined;
      });
      // A delivery stored but never attempted (the process stopped right after writing it).
      const db = testDatabase(first);
      const [stored] = await deliveries(token, id, first);
      try {
        const row = await db
          .selectFrom('notification_deliveries')
          .selectAll()
          .where('id', '=', stored?.id ?? '')
          .executeTakeFirstOrThrow();
        await db
          .insertInto('notification_deliveries')
          .values({
            ...row,
            id: 'ndl_never_tried',
            status: 'pending',
            attempts: 0,
            next_attempt_at: row.created_at,
          })
          .execute();
      } finally {
        await db.destroy();
      }
      await first.close();
      first = undefined;

      back = await startReceiver(SECRET, port);
      second = await startTestServer({ ...ENV, NOTIFY_RETRY_DELAYS_MS: '1500' }, dataDir);
      const receiving = back;
      await waitFor('both deliveries to arrive', () => (receiving.received.length >= 2 ? true : undefined));
      expect(back.received.every((r) => r.signatureValid === true)).toBe(true);
      const log = await waitFor('both logged as sent', async () => {
        const all = await deliveries(token, id, second);
        return all.every((d) => d.status === 'sent') ? all : undefined;
      });
      const resumed = log.find((d) => d.id !== 'ndl_never_tried');
      expect(resumed?.attempts.map((a) => a.status)).toEqual(['retrying', 'sent']);
      expect(log.find((d) => d.id === 'ndl_never_tried')?.attempts.map((a) => a.status)).toEqual(['sent']);
    } finally {
      await first?.close();
      await second?.close();
      await back?.close();
      removeDir(dataDir);
    }
  });
});

describe('e-mail', () => {
  it('sends through a real SMTP server', async () => {
    const mails: { from: string; to: string[]; data: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          mails.push({
            from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((r) => r.address),
            data: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    const mailServer = await startTestServer({
      ...ENV,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      SMTP_FROM: 'AnybodyQA <qa@example.test>',
    });
    try {
      // Without SMTP_URL, an e-mail channel is refused, naming the field.
      const noSmtp = await call('POST', '/api/notification-channels', alice.token, {
        type: 'email',
        url: 'lead@example.test',
        events: ['run_failed'],
      });
      expect(noSmtp.statusCode).toBe(400);
      expect(noSmtp.json<{ detail: string }>().detail).toMatch(/^type: .*SMTP_URL/);

      const { token } = await registerAndLogin(mailServer);
      const id = await createChannel(
        token,
        { type: 'email', url: 'lead@example.test', events: ['run_failed'] },
        mailServer,
      );
      await call('POST', `/api/notification-channels/${id}/test`, token, undefined, mailServer);
      const delivery = await settled(token, id, mailServer);
      expect(delivery.status).toBe('sent');
      expect(delivery.attempts[0]?.answer).toMatch(/^250/);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ from: 'qa@example.test', to: ['lead@example.test'] });
      expect(mails[0]?.data).toMatch(/^Subject: .*AnybodyQA_test_notification/m);
      expect(mails[0]?.data).toContain('This channel works');
      expect(mails[0]?.data).toContain(`${PUBLIC_URL}/settings/notifications`);
    } finally {
      await closeTestServer(mailServer);
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
