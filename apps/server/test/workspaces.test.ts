import type { Schedule, WorkspaceList, WorkspaceMembers } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { startReceiver } from './notification-receiver';
import { closeTestServer, registerAndLogin, startServerWithTwoUsers, type TestServer } from './helpers';
import { waitFor } from './wait-for';

/*
 * Workspaces and roles (docs/adr/0035-workspaces-and-roles.md) through their calls, on a real store,
 * with a real local target and webhook receiver: the "done when" — a lead makes a team
 * workspace, adds a developer as viewer, schedules an API test with a webhook, the scheduled run fails
 * and tells the webhook, and the developer reads the failed run and can change or start nothing.
 */

let server: TestServer;
let target: CountingTarget;
let lead: { token: string; email: string };
let developer: { token: string; email: string };

beforeAll(async () => {
  target = await startCountingTarget();
  ({
    server,
    alice: lead,
    bob: developer,
  } = await startServerWithTwoUsers({}, { scheduler: { tickMs: 20 } }));
});

afterAll(async () => {
  await closeTestServer(server);
  await target?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A call in a workspace (the X-Workspace-Id header), or in the caller's personal one without. */
function call(method: Method, url: string, token: string, body?: unknown, workspace?: string) {
  return server.request({
    method,
    url,
    token,
    ...(body === undefined ? {} : { body }),
    ...(workspace === undefined ? {} : { headers: { 'x-workspace-id': workspace } }),
  });
}

async function makeWorkspace(name: string, timezone?: string): Promise<string> {
  const made = await call('POST', '/api/workspaces', lead.token, { name, ...(timezone ? { timezone } : {}) });
  expect(made.statusCode, made.body).toBe(201);
  return made.json<{ id: string }>().id;
}

describe('workspaces and roles', () => {
  it('makes a team workspace, adds a viewer by address, and refuses what does not read in words', async () => {
    const ws = await makeWorkspace('QA team', 'Asia/Seoul');
    const listed = (await call('GET', '/api/workspaces', lead.token)).json<WorkspaceList>();
    expect(listed.workspaces[0]).toMatchObject({ personal: true, role: 'owner' });
    expect(listed.workspaces.find((w) => w.id === ws)).toMatchObject({
      name: 'QA team',
      personal: false,
      role: 'owner',
      timezone: 'Asia/Seoul',
      members: 1,
    });
    const unknown = await call('POST', `/api/workspaces/${ws}/members`, lead.token, {
      email: 'nobody@example.com',
      role: 'viewer',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ code: string; detail: string }>()).toMatchObject({ code: 'NO_SUCH_ACCOUNT' });
    const added = await call('POST', `/api/workspaces/${ws}/members`, lead.token, {
      email: developer.email.toUpperCase(),
      role: 'viewer',
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json<WorkspaceMembers>().members.map((m) => m.role)).toEqual(['owner', 'viewer']);
    const again = await call('POST', `/api/workspaces/${ws}/members`, lead.token, {
      email: developer.email,
      role: 'editor',
    });
    expect(again.statusCode).toBe(409);
    expect((await call('POST', '/api/workspaces', lead.token, { name: '  ' })).statusCode).toBe(400);
    const zone = await call('PUT', `/api/workspaces/${ws}`, lead.token, { timezone: 'Seoul' });
    expect(zone.statusCode).toBe(400);
    expect(zone.json<{ detail: string }>().detail).toContain('not an IANA time zone');
    // A schedule that names no time zone takes the workspace's.
    const saved = await call(
      'POST',
      '/api/functional/save-config',
      lead.token,
      {
        test_name: 'Zoned',
        iterations: 1,
        think_time: 0,
        apis: [{ name: 'A', url: `${target.origin}/zoned` }],
      },
      ws,
    );
    const zoned = await call(
      'POST',
      '/api/schedules',
      lead.token,
      { plan_id: saved.json<{ id: string }>().id, cron: '0 2 * * *', enabled: false },
      ws,
    );
    expect(zoned.json<Schedule>()).toMatchObject({
      timezone: 'Asia/Seoul',
      description: 'At 02:00 (Asia/Seoul)',
    });
    // The developer sees it with their role; a workspace they are not in is not found, in words.
    const theirs = (await call('GET', '/api/workspaces', developer.token)).json<WorkspaceList>();
    expect(theirs.workspaces.find((w) => w.id === ws)?.role).toBe('viewer');
    const stranger = await registerAndLogin(server);
    const probe = await call('GET', '/api/get-test-plans', stranger.token, undefined, ws);
    expect(probe.statusCode).toBe(404);
    expect(probe.json<{ code: string }>().code).toBe('WORKSPACE_NOT_FOUND');
  });

  it('runs the schedule in the workspace, tells its webhook, and the viewer reads the failed run but changes nothing', async () => {
    const ws = await makeWorkspace('Nightly');
    await call('POST', `/api/workspaces/${ws}/members`, lead.token, {
      email: developer.email,
      role: 'viewer',
    });
    const receiver = await startReceiver('team-secret-0123456789');
    try {
      const saved = await call(
        'POST',
        '/api/functional/save-config',
        lead.token,
        {
          test_name: 'Checkout API',
          iterations: 1,
          think_time: 0,
          apis: [{ name: 'Checkout', url: `${target.origin}/fail/checkout` }],
        },
        ws,
      );
      expect(saved.statusCode, saved.body).toBe(201);
      const planId = saved.json<{ id: string }>().id;
      // Not in the lead's personal workspace: there it is not found.
      expect((await call('GET', `/api/functional/get-test-config/${planId}`, lead.token)).statusCode).toBe(
        404,
      );
      const channel = await call(
        'POST',
        '/api/notification-channels',
        lead.token,
        {
          type: 'webhook',
          url: `${receiver.origin}/hook`,
          secret: 'team-secret-0123456789',
          events: ['run_failed'],
        },
        ws,
      );
      expect(channel.statusCode, channel.body).toBe(201);
      const channelId = channel.json<{ id: string }>().id;
      const created = await call(
        'POST',
        '/api/schedules',
        lead.token,
        { plan_id: planId, cron: '0 2 * * *', timezone: 'Asia/Seoul', channel_ids: [channelId] },
        ws,
      );
      expect(created.statusCode, created.body).toBe(201);
      const schedule = created.json<Schedule>();
      const [due] = schedule.next_runs as [string];
      server.clock.nowMs = Date.parse(due) + 500;
      const fired = await waitFor(
        'the schedule to start its run',
        async () =>
          (await call('GET', '/api/schedules', lead.token, undefined, ws))
            .json<{ schedules: Schedule[] }>()
            .schedules.find((s) => s.id === schedule.id && s.last_run?.at === due),
        30_000,
        20,
      );
      expect(fired.last_run).toMatchObject({ outcome: 'started' });
      const runId = fired.last_run!.run_id!;
      const told = await waitFor(
        'the webhook to be told of the failed run',
        () => receiver.received.find((got) => got.body.includes(runId)),
        30_000,
        50,
      );
      expect(told.signatureValid).toBe(true);
      const notice = JSON.parse(told.body) as { event: string; url: string };
      expect(notice.event).toBe('run_failed');
      // Its link opens the run in the workspace.
      expect(notice.url).toMatch(new RegExp(`/functional-test-result/${runId}\\?workspace_id=${ws}$`));

      // The developer reads the failed run the notice links to, in the workspace.
      const result = await call(
        'GET',
        `/api/functional/get-test-result/${runId}`,
        developer.token,
        undefined,
        ws,
      );
      expect(result.statusCode).toBe(200);
      expect(result.json<{ status: string }>().status).toBe('failed');
      // Outside the workspace (their personal one) it is not theirs.
      expect(
        (await call('GET', `/api/functional/get-test-result/${runId}`, developer.token)).statusCode,
      ).toBe(404);
      // Their inbox in the workspace tells of it; reading it leaves the lead's unread count alone.
      const inbox = (await call('GET', '/api/messages', developer.token, undefined, ws)).json<{
        unread: number;
        messages: { run_id: string }[];
      }>();
      expect(inbox.messages.some((m) => m.run_id === runId)).toBe(true);
      const leadUnread = (await call('GET', '/api/messages', lead.token, undefined, ws)).json<{
        unread: number;
      }>().unread;
      await call('POST', '/api/messages/read', developer.token, {}, ws);
      expect(
        (await call('GET', '/api/messages', developer.token, undefined, ws)).json<{ unread: number }>()
          .unread,
      ).toBe(0);
      expect(
        (await call('GET', '/api/messages', lead.token, undefined, ws)).json<{ unread: number }>().unread,
      ).toBe(leadUnread);

      // …and can change or start nothing: each refusal a 403 in words, nothing stored.
      const refusals = await Promise.all([
        call(
          'POST',
          '/api/functional/run-test',
          developer.token,
          { plan_id: planId, test_name: 'x', apis: [{ name: 'a', url: `${target.origin}/x` }] },
          ws,
        ),
        call('PUT', `/api/schedules/${schedule.id}`, developer.token, { enabled: false }, ws),
        call('DELETE', `/api/functional/delete-result/${runId}`, developer.token, undefined, ws),
        call('DELETE', `/api/functional/delete-config/${planId}`, developer.token, undefined, ws),
        call(
          'POST',
          '/api/notification-channels',
          developer.token,
          { type: 'webhook', url: `${receiver.origin}/x`, events: ['run_failed'] },
          ws,
        ),
        call('POST', `/api/workspaces/${ws}/members`, developer.token, { email: lead.email, role: 'viewer' }),
        call('GET', '/api/audit', developer.token, undefined, ws),
      ]);
      for (const refused of refusals) {
        expect(refused.statusCode, refused.body).toBe(403);
        expect(refused.json<{ code: string }>().code).toBe('WORKSPACE_ROLE');
      }
      expect(refusals[0].json<{ detail: string }>().detail).toBe(
        'Your role in this workspace is viewer: it may read plans and results, not change or run anything',
      );
      expect(
        (await call('GET', `/api/functional/get-test-config/${planId}`, lead.token, undefined, ws))
          .statusCode,
      ).toBe(200);
      // The lead, an owner, reads the workspace's audit log: who scheduled what and who added whom.
      const audit = (await call('GET', '/api/audit', lead.token, undefined, ws)).json<{
        entries: { object: string; action: string; actor_email: string }[];
      }>();
      expect(audit.entries.map((e) => `${e.action} ${e.object}`)).toEqual(
        expect.arrayContaining(['created schedule', 'created functional_plan', 'created workspace_member']),
      );
      // The lead's personal log does not hold the workspace's entries.
      const personal = (await call('GET', '/api/audit', lead.token)).json<{
        entries: { object: string }[];
      }>();
      expect(personal.entries.some((e) => e.object === 'schedule')).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it('lets an editor change plans, keeps one owner, lets members leave, and deletes a workspace with its things', async () => {
    const ws = await makeWorkspace('Editors');
    const added = await call('POST', `/api/workspaces/${ws}/members`, lead.token, {
      email: developer.email,
      role: 'viewer',
    });
    const developerId = added
      .json<WorkspaceMembers>()
      .members.find((m) => m.email === developer.email)!.user_id;
    const leadId = added.json<WorkspaceMembers>().members.find((m) => m.role === 'owner')!.user_id;
    const plan = { name: 'Team load', urls: [{ method: 'GET', url: `${target.origin}/team` }] };
    expect((await call('POST', '/api/save-test-plan', developer.token, plan, ws)).statusCode).toBe(403);
    const promoted = await call('PUT', `/api/workspaces/${ws}/members/${developerId}`, lead.token, {
      role: 'editor',
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    const saved = await call('POST', '/api/save-test-plan', developer.token, plan, ws);
    expect(saved.statusCode, saved.body).toBe(201);
    // The editor may not manage members; the last owner cannot step down.
    expect(
      (await call('PUT', `/api/workspaces/${ws}/members/${leadId}`, developer.token, { role: 'viewer' }))
        .statusCode,
    ).toBe(403);
    const lastOwner = await call('PUT', `/api/workspaces/${ws}/members/${leadId}`, lead.token, {
      role: 'editor',
    });
    expect(lastOwner.statusCode).toBe(409);
    expect(lastOwner.json<{ code: string }>().code).toBe('LAST_OWNER');
    // The lead's plan list in the workspace holds the editor's plan; the lead's personal one does not.
    const inWorkspace = (await call('GET', '/api/get-test-plans', lead.token, undefined, ws)).json<
      { name: string }[]
    >();
    expect(inWorkspace.map((p) => p.name)).toEqual(['Team load']);
    const personal = (await call('GET', '/api/get-test-plans', lead.token)).json<{ name: string }[]>();
    expect(personal.map((p) => p.name)).not.toContain('Team load');
    // The editor leaves: the workspace is no longer theirs.
    expect(
      (await call('DELETE', `/api/workspaces/${ws}/members/${developerId}`, developer.token)).statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/get-test-plans', developer.token, undefined, ws)).statusCode).toBe(404);
    // A personal workspace has no members to manage.
    const mine = (await call('GET', '/api/workspaces', lead.token)).json<WorkspaceList>().workspaces[0]!;
    const personalAdd = await call('POST', `/api/workspaces/${mine.id}/members`, lead.token, {
      email: developer.email,
      role: 'viewer',
    });
    expect(personalAdd.statusCode).toBe(400);
    // Deleted, it takes its plans with it.
    expect((await call('DELETE', `/api/workspaces/${ws}`, lead.token)).statusCode).toBe(204);
    expect((await call('GET', '/api/get-test-plans', lead.token, undefined, ws)).statusCode).toBe(404);
    const rows = await server.request({ method: 'GET', url: '/api/workspaces', token: lead.token });
    expect(rows.json<WorkspaceList>().workspaces.map((w) => w.id)).not.toContain(ws);
  });

  it('lets an owner make an invite link for a role that is used once, until it expires', async () => {
    const ws = await makeWorkspace('Invited');
    const made = await call('POST', `/api/workspaces/${ws}/invites`, lead.token, { role: 'editor', days: 2 });
    expect(made.statusCode, made.body).toBe(201);
    const invite = made.json<{ id: string; token: string; url: string; expires_at: string }>();
    expect(invite.url).toMatch(new RegExp(`/invite/${invite.token}$`));
    expect(Date.parse(invite.expires_at) - server.clock.nowMs).toBe(2 * 24 * 3600_000);
    // The owners' list names it, never with its token; a member may not make or read them.
    const listed = (await call('GET', `/api/workspaces/${ws}/invites`, lead.token)).body;
    expect(listed).toContain(invite.id);
    expect(listed).not.toContain(invite.token);
    const newcomer = await registerAndLogin(server);
    const preview = await call('GET', `/api/invites/${invite.token}`, newcomer.token);
    expect(preview.json()).toMatchObject({ workspace_name: 'Invited', role: 'editor' });
    const joined = await call('POST', `/api/invites/${invite.token}/accept`, newcomer.token);
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json()).toMatchObject({ id: ws, role: 'editor' });
    expect((await call('GET', '/api/get-test-plans', newcomer.token, undefined, ws)).statusCode).toBe(200);
    // The joining is the team's to see: its owners' audit log has it, the joiner's own log does not.
    type Log = { entries: { object: string; action: string; actor_email: string; object_id: string }[] };
    const teamLog = (await call('GET', '/api/audit', lead.token, undefined, ws)).json<Log>();
    expect(
      teamLog.entries.filter(
        (e) => e.object === 'workspace_member' && e.actor_email === newcomer.registration.email,
      ),
    ).toHaveLength(1);
    const ownLog = (await call('GET', '/api/audit', newcomer.token)).json<Log>();
    expect(ownLog.entries.some((e) => e.object === 'workspace_member')).toBe(false);
    expect(
      (await call('POST', `/api/workspaces/${ws}/invites`, newcomer.token, { role: 'owner' })).statusCode,
    ).toBe(403);
    // Used once: a second account is told so in words.
    const second = await registerAndLogin(server);
    const used = await call('POST', `/api/invites/${invite.token}/accept`, second.token);
    expect(used.statusCode).toBe(404);
    expect(used.json<{ detail: string }>().detail).toContain('not valid');
    // An expired link says so; a withdrawn one is gone.
    const soon = (
      await call('POST', `/api/workspaces/${ws}/invites`, lead.token, { role: 'viewer', days: 1 })
    ).json<{
      token: string;
    }>();
    const before = server.clock.nowMs;
    server.clock.nowMs += 24 * 3600_000 + 1000;
    const expired = await call('POST', `/api/invites/${soon.token}/accept`, second.token);
    server.clock.nowMs = before;
    expect(expired.statusCode).toBe(410);
    expect(expired.json<{ code: string }>().code).toBe('INVITE_EXPIRED');
    const withdrawn = (
      await call('POST', `/api/workspaces/${ws}/invites`, lead.token, { role: 'viewer' })
    ).json<{
      id: string;
      token: string;
    }>();
    expect(
      (await call('DELETE', `/api/workspaces/${ws}/invites/${withdrawn.id}`, lead.token)).statusCode,
    ).toBe(204);
    expect((await call('GET', `/api/invites/${withdrawn.token}`, second.token)).statusCode).toBe(404);
    expect(
      (await call('POST', `/api/workspaces/${ws}/invites`, lead.token, { role: 'viewer', days: 31 }))
        .statusCode,
    ).toBe(400);
  });

  it('does not start a schedule whose author is no longer an editor of its workspace, and says why', async () => {
    const ws = await makeWorkspace('Leavers');
    const added = await call('POST', `/api/workspaces/${ws}/members`, lead.token, {
      email: developer.email,
      role: 'editor',
    });
    const developerId = added
      .json<WorkspaceMembers>()
      .members.find((m) => m.email === developer.email)!.user_id;
    const saved = await call(
      'POST',
      '/api/functional/save-config',
      developer.token,
      {
        test_name: 'Left behind',
        iterations: 1,
        think_time: 0,
        apis: [{ name: 'A', url: `${target.origin}/left` }],
      },
      ws,
    );
    const planId = saved.json<{ id: string }>().id;
    const created = await call(
      'POST',
      '/api/schedules',
      developer.token,
      { plan_id: planId, cron: '*/5 * * * *' },
      ws,
    );
    const schedule = created.json<Schedule>();
    await call('PUT', `/api/workspaces/${ws}/members/${developerId}`, lead.token, { role: 'viewer' });
    const [due] = schedule.next_runs as [string];
    server.clock.nowMs = Math.max(server.clock.nowMs, Date.parse(due) + 500);
    const fired = await waitFor(
      'the schedule to come round',
      async () =>
        (await call('GET', '/api/schedules', lead.token, undefined, ws))
          .json<{ schedules: Schedule[] }>()
          .schedules.find((s) => s.id === schedule.id && s.last_run !== null),
      30_000,
      20,
    );
    expect(fired.last_run).toMatchObject({ outcome: 'not_started' });
    expect(fired.last_run?.reason).toContain('Your role in this workspace is viewer');
    expect((await target.counts()).byPath['/left']).toBeUndefined();
  });
});
