import { describe, expect, it } from 'vitest';
import { migratePlan } from '@aqa/plan';
import { capacityProblems, connectionsPerUser, machineLimits, type MachineLimits } from './capacity';
import { compilePlan } from './compile';
import { parseEnginePlan } from './engine-plan';

const plan = (urls: string[]) =>
  compilePlan(migratePlan({ name: 'p', concurrent_users: 1, urls: urls.map((url) => ({ url })) }));
const roomy: MachineLimits = {
  openFiles: 1_048_576,
  openNow: 10,
  localPorts: 28_232,
  localPortRange: '32768 60999',
};

describe('capacity', () => {
  it('counts one connection per user and fixed origin, plus one for a variable origin', () => {
    expect(connectionsPerUser(plan(['http://a.test/x', 'http://a.test/y'])).perUser).toBe(1);
    expect(connectionsPerUser(plan(['http://a.test/x', 'http://b.test:8080/y'])).perUser).toBe(2);
    expect(connectionsPerUser(plan(['http://a.test/x', '{{base}}/y'])).perUser).toBe(2);
  });

  it('holds 10,000 users where the limits allow them', () => {
    expect(capacityProblems(plan(['http://a.test/x']), 10_000, 2, roomy)).toEqual([]);
  });

  it('says how many open files the users need, what the limit is and what to do', () => {
    const problems = capacityProblems(plan(['http://a.test/x', 'http://b.test/y']), 10_000, 2, {
      ...roomy,
      openFiles: 4096,
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toBe(
      '10,000 virtual users need about 20,090 open files (one connection per user and origin, 2 each), but this process may open at most 4,096: raise the limit (`ulimit -Hn` shows it; set it with `ulimit -n 22099` in a root shell, LimitNOFILE= for a systemd service, or /etc/security/limits.conf) or run at most 2,003 users',
    );
  });

  it('says when one origin would need more local ports than the machine has', () => {
    const problems = capacityProblems(plan(['http://a.test/x']), 30_000, 2, roomy);
    expect(problems).toEqual([
      '30,000 virtual users each open a connection to http://a.test, but this machine has 28,232 local ports for connections to one address (net.ipv4.ip_local_port_range 32768 60999): widen the range (sysctl -w net.ipv4.ip_local_port_range="1024 65535"), or run at most 28,232 users per machine',
    ]);
  });

  it('checks nothing it cannot read', () => {
    const unknown: MachineLimits = { openFiles: null, openNow: 0, localPorts: null, localPortRange: null };
    expect(capacityProblems(plan(['http://a.test/x']), 900_000, 2, unknown)).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('reads the limits of this process on Linux', () => {
    const limits = machineLimits();
    expect(limits.openFiles).toBeGreaterThan(0);
    expect(limits.openNow).toBeGreaterThan(2);
    expect(limits.localPorts).toBeGreaterThan(0);
  });
});

describe('engine plans', () => {
  const base = { name: 'p', urls: [{ url: 'http://a.test/' }] };

  it('accept users past the form up to 1,000,000, as an ordinary plan', () => {
    const r = parseEnginePlan({ ...base, concurrent_users: 250_000 });
    expect(r.success && r.data.concurrent_users).toBe(250_000);
    const small = parseEnginePlan({ ...base, concurrent_users: 12 });
    expect(small.success && small.data.concurrent_users).toBe(12);
  });

  it('refuse what the engine cannot run, listing every problem in the order of the plan', () => {
    const r = parseEnginePlan({ name: '', concurrent_users: 1_000_001, urls: [{ url: 'nope' }] });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(r.problems.map((p) => p.field)).toEqual(['name', 'concurrent_users', 'urls[0].url']);
    expect(r.problems[1]!.message).toBe(
      'Concurrent users must be a whole number from 1 to 1,000,000 for the built-in engine (the plan form allows 1 to 1000)',
    );
    for (const users of [0, 1.5, 'many'])
      expect(parseEnginePlan({ ...base, concurrent_users: users }).success).toBe(false);
  });
});
