import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FunctionalPlanSchema, type CallResult } from '@aqa/plan';
import { TestTarget } from '../testing/target';
import { liveSandboxVms } from './postman/quickjs-vm';
import { FunctionalRunner } from './runner';

/*
 * The functional runner gives each virtual user one warm Postman sandbox for all its scripts, made at
 * its first script and disposed of when that user's run ends, however it ends
 * (docs/adr/0028-postman-sandbox.md §1 "One warm VM per virtual user"). Real QuickJS and a real local
 * server; the count of live VMs proves none is leaked.
 */

const target = new TestTarget();
beforeAll(async () => {
  await target.start();
  target.route = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"id":1}');
  };
});
afterAll(async () => {
  await target.close();
});
afterEach(() => {
  target.reset();
  expect(liveSandboxVms()).toBe(0);
});

const url = (path: string) => `${target.origin}${path}`;
const block = (source: string) => ({ origin: 'request', source });
const testScript = (source: string) => ({ prerequest: [], test: [block(source)] });

function runner(input: Record<string, unknown>, onCall: (call: CallResult) => void): FunctionalRunner {
  const plan = FunctionalPlanSchema.parse({ test_name: 'sandbox', think_time: 0, ...input });
  return new FunctionalRunner(plan, { insecureTls: false, onCall: (j) => onCall(j.call) });
}

async function run(input: Record<string, unknown>): Promise<{ calls: CallResult[]; peakVms: number }> {
  const calls: CallResult[] = [];
  let peakVms = 0;
  await runner(input, (call) => {
    calls.push(call);
    peakVms = Math.max(peakVms, liveSandboxVms());
  }).run();
  return { calls, peakVms };
}

const scripted = (c: CallResult) =>
  c.validation_details.filter((d) => d.type === 'script').map((d) => [d.name, d.passed, d.message]);

describe('one user s scripts', () => {
  it('share a VM but not their globals; pm.environment still carries values to the next script', async () => {
    const { calls, peakVms } = await run({
      iterations: 2,
      apis: [
        {
          name: 'a',
          url: url('/a'),
          scripts: testScript(
            `leaked = "a"; var declared = 1; const data = pm.response.json(); pm.environment.set("seen", "yes");`,
          ),
        },
        {
          name: 'b',
          url: url('/b'),
          scripts: testScript(`
            const data = pm.response.json();
            pm.test("no global from a", () => pm.expect(typeof leaked + typeof declared).to.equal("undefinedundefined"));
            pm.test("environment from a", () => pm.expect(pm.environment.get("seen")).to.equal("yes"));
          `),
        },
      ],
    });
    expect(calls.map((c) => [c.api_name, c.success])).toEqual([
      ['a', true],
      ['b', true],
      ['a', true],
      ['b', true],
    ]);
    expect(scripted(calls[1]!)).toEqual([
      ['no global from a', true, 'passed'],
      ['environment from a', true, 'passed'],
    ]);
    expect(peakVms).toBe(1);
  });

  it('go on in a fresh VM after one ran past its time limit', async () => {
    const { calls } = await run({
      iterations: 2,
      apis: [
        {
          name: 'sometimes stuck',
          url: url('/s'),
          scripts: testScript(`marker = 1; if (pm.info.iteration === 0) while (true) {}
            pm.test("ran", () => pm.response.to.have.status(200));`),
        },
      ],
    });
    expect(calls.map((c) => c.success)).toEqual([false, true]);
    expect(calls[0]!.error).toBe('test script of request: the script ran past its time limit of 1000 ms');
    expect(scripted(calls[1]!)).toEqual([['ran', true, 'passed']]);
  }, 15_000);
});

describe('users', () => {
  it('each keep their own VM for all their iterations, and none is left when the run ends', async () => {
    // A prototype a script changes stays in its VM (docs/adr/0028-postman-sandbox.md §1): each user
    // counts its own scripts, so two users counting 1, 2, 3 prove two VMs, each reused.
    const { calls, peakVms } = await run({
      concurrent_users: 2,
      iterations: 3,
      apis: [
        {
          name: 'count',
          url: url('/count'),
          scripts: {
            prerequest: [block(`Array.prototype.n = ([].n || 0) + 1; pm.test("script " + [].n, () => {});`)],
            test: [],
          },
        },
      ],
    });
    const byUser = (user: number) => calls.filter((c) => c.user === user).map((c) => scripted(c)[0]![0]);
    expect(byUser(1)).toEqual(['script 1', 'script 2', 'script 3']);
    expect(byUser(2)).toEqual(['script 1', 'script 2', 'script 3']);
    expect(peakVms).toBe(2);
  });

  it('many users running many scripts leave no VM behind', async () => {
    const { calls, peakVms } = await run({
      concurrent_users: 8,
      iterations: 4,
      apis: ['x', 'y'].map((name) => ({
        name,
        url: url(`/${name}`),
        scripts: testScript(
          `pm.test("ok", () => { pm.response.to.have.status(200); pm.expect(pm.response.json().id).to.eql(1); });`,
        ),
      })),
    });
    expect(calls).toHaveLength(64);
    expect(calls.every((c) => c.success)).toBe(true);
    expect(peakVms).toBeGreaterThan(0);
    expect(peakVms).toBeLessThanOrEqual(8);
  }, 30_000);

  it('make no VM for a plan without scripts', async () => {
    const { calls, peakVms } = await run({ concurrent_users: 2, apis: [{ name: 'plain', url: url('/p') }] });
    expect(calls).toHaveLength(2);
    expect(peakVms).toBe(0);
  });
});

describe('a user s run that ends early', () => {
  it('disposes of the VMs when the run is stopped', async () => {
    let calls = 0;
    const r = runner(
      {
        concurrent_users: 3,
        iterations: 1_000,
        apis: [{ name: 'long', url: url('/l'), scripts: testScript(`pm.test("ok", () => {});`) }],
      },
      () => {
        if (++calls === 6) r.stop();
      },
    );
    await r.run();
    expect(calls).toBeLessThan(3_000);
    expect(liveSandboxVms()).toBe(0);
  });

  it('disposes of the VM when the user s run throws', async () => {
    const r = runner(
      { apis: [{ name: 'one', url: url('/o'), scripts: testScript(`pm.test("ok", () => {});`) }] },
      () => {
        throw new Error('the report failed');
      },
    );
    await expect(r.run()).rejects.toThrow('the report failed');
    expect(liveSandboxVms()).toBe(0);
  });
});
