import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestServer, startServerWithTwoUsers, type SignedInUser, type TestServer } from './helpers';

let server: TestServer;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  ({ server, alice, bob } = await startServerWithTwoUsers());
});

afterAll(() => closeTestServer(server));

interface SavedPlan {
  id: string;
  name: string;
  tool: string;
  concurrent_users: number;
  duration: number;
  urls: { name?: string; method: string; thinkTime: string; timeout: number; headers: unknown[] }[];
  script: string;
  script_edited: boolean;
  updated_at: string;
}

interface CommandAnswer {
  message: string;
  parsed_updates: { field: string; value: unknown; scope: unknown }[];
  updated_plan: SavedPlan;
}

const planBody = {
  name: 'Checkout flow',
  tool: 'k6',
  concurrent_users: 5,
  duration: 2,
  urls: [
    { name: 'Login', method: 'POST', url: 'http://127.0.0.1:9/login', payload: '{"user":"ada"}' },
    { name: 'Basket', method: 'GET', url: 'http://127.0.0.1:9/basket' },
  ],
};

async function save(token: string, body: unknown = planBody): Promise<SavedPlan> {
  const response = await server.request({ method: 'POST', url: '/api/save-test-plan', token, body });
  if (response.statusCode !== 201) throw new Error(`save failed: ${response.body}`);
  return response.json<{ plan: SavedPlan }>().plan;
}

async function get(token: string, id: string): Promise<SavedPlan> {
  const response = await server.request({ method: 'GET', url: `/api/get-test-plan/${id}`, token });
  return response.json<SavedPlan>();
}

function command(token: string, body: Record<string, unknown>) {
  return server.request({ method: 'POST', url: '/api/update-test-plan-command', token, body });
}

describe('POST /api/update-test-plan-command', () => {
  it('applies every change of the command, saves the plan and lists the changes', async () => {
    const saved = await save(alice.token);
    server.clock.advance(1000);
    const response = await command(alice.token, {
      plan_id: saved.id,
      command: 'set users to 50 and duration to 10 minutes, think time 2s for all APIs',
      user_email: alice.email,
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json<CommandAnswer>();
    expect(answer.message).toBe(
      'Applied 3 changes: concurrent users → 50; duration → 10 min; think time → 2s for all APIs',
    );
    expect(answer.parsed_updates).toEqual([
      { field: 'concurrent_users', value: 50, scope: 'plan' },
      { field: 'duration', value: 10, scope: 'plan' },
      { field: 'thinkTime', value: '2s', scope: 'all' },
    ]);
    expect(answer.updated_plan).toMatchObject({ id: saved.id, concurrent_users: 50, duration: 10 });
    expect(answer.updated_plan.urls.map((u) => u.thinkTime)).toEqual(['2s', '2s']);
    expect(answer.updated_plan.updated_at).not.toBe(saved.updated_at);

    const stored = await get(alice.token, saved.id);
    expect(stored).toEqual(answer.updated_plan);
  });

  it('ramps up and adds a spike: the load profile is saved, with its users and minutes, and the script follows it', async () => {
    const saved = await save(alice.token);
    const response = await command(alice.token, {
      plan_id: saved.id,
      command: 'ramp up over 30 seconds and add a spike to 40 users',
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json<CommandAnswer & { updated_plan: { load_profile?: unknown } }>();
    expect(answer.message).toBe(
      'Applied 2 changes: load profile → 0 → 30s:5 → 90s:5 (2m); load profile → 0 → 30s:5 → 90s:5 → 10s:40 → 30s:40 → 10s:5 (2m 50s)',
    );
    expect(answer.updated_plan.load_profile).toEqual({
      model: 'users',
      start: 0,
      stages: [
        { duration: '30s', target: 5 },
        { duration: '90s', target: 5 },
        { duration: '10s', target: 40 },
        { duration: '30s', target: 40 },
        { duration: '10s', target: 5 },
      ],
      graceful_stop: '10s',
    });
    // The peak users and the minutes rounded up, as the editor keeps them.
    expect(answer.updated_plan).toMatchObject({ concurrent_users: 40, duration: 3 });
    expect(answer.updated_plan.script).toContain('ramping-vus');
    expect(await get(alice.token, saved.id)).toEqual(answer.updated_plan);
  });

  it('reads Korean commands and per-API changes', async () => {
    const saved = await save(alice.token);
    const response = await command(alice.token, {
      plan_id: saved.id,
      command: 'JMeter로 바꿔 그리고 2번 API를 POST로 바꿔 그리고 모든 API에 헤더 X-Env: staging 추가',
    });
    expect(response.statusCode).toBe(200);
    const plan = response.json<CommandAnswer>().updated_plan;
    expect(plan.tool).toBe('jmeter');
    expect(plan.urls.map((u) => u.method)).toEqual(['POST', 'POST']);
    expect(plan.urls.every((u) => JSON.stringify(u.headers).includes('"X-Env"'))).toBe(true);
  });

  it('regenerates the stored script for the new settings', async () => {
    const saved = await save(alice.token);
    expect(saved.script).toContain('vus: 5');
    const response = await command(alice.token, { plan_id: saved.id, command: 'set users to 40' });
    const plan = response.json<CommandAnswer>().updated_plan;
    expect(plan.script_edited).toBe(false);
    expect(plan.script).toContain('40');
    expect(plan.script).not.toBe(saved.script);
  });

  it('keeps a script edited by hand', async () => {
    const script = '// my own script\nexport default function () {}\n';
    const saved = await save(alice.token, { ...planBody, script });
    expect(saved.script_edited).toBe(true);
    const response = await command(alice.token, { plan_id: saved.id, command: 'rename plan to Mine' });
    expect(response.statusCode).toBe(200);
    const plan = response.json<CommandAnswer>().updated_plan;
    expect(plan).toMatchObject({ name: 'Mine', script, script_edited: true });
  });

  it('answers 400 with what was not understood and examples, and changes nothing', async () => {
    const saved = await save(alice.token);
    const response = await command(alice.token, {
      plan_id: saved.id,
      command: 'set users to 50 and make it faster',
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ detail: string; code: string }>();
    expect(body.code).toBe('COMMAND_NOT_UNDERSTOOD');
    expect(body.detail).toMatch(
      /^"make it faster" was not understood\. Try: "set think time to 2s for all APIs", /,
    );
    expect(await get(alice.token, saved.id)).toEqual(saved);
  });

  it('answers 400 for values out of the model bounds and for an empty command', async () => {
    const saved = await save(alice.token);
    const tooMany = await command(alice.token, { plan_id: saved.id, command: 'set users to 5000' });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ detail: string }>().detail).toMatch(
      /^Concurrent users must be a whole number from 1 to 1000 Try: /,
    );
    const noApi = await command(alice.token, { plan_id: saved.id, command: 'think time 2s for API 3' });
    expect(noApi.json<{ detail: string }>().detail).toMatch(/^API 3 does not exist/);
    const empty = await command(alice.token, { plan_id: saved.id, command: '' });
    expect(empty.statusCode).toBe(400);
    expect(await get(alice.token, saved.id)).toEqual(saved);
  });

  it('is scoped to the signed-in user: another user’s plan is 404, another user_email 403', async () => {
    const saved = await save(alice.token);
    const other = await command(bob.token, { plan_id: saved.id, command: 'set users to 50' });
    expect(other.statusCode).toBe(404);
    const mismatch = await command(alice.token, {
      plan_id: saved.id,
      command: 'set users to 50',
      user_email: bob.email,
    });
    expect(mismatch.statusCode).toBe(403);
    const missing = await command(alice.token, { plan_id: 'no-such-plan', command: 'set users to 50' });
    expect(missing.statusCode).toBe(404);
    const anonymous = await server.request({
      method: 'POST',
      url: '/api/update-test-plan-command',
      body: { plan_id: saved.id, command: 'set users to 50' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await get(alice.token, saved.id)).toEqual(saved);
  });
});
