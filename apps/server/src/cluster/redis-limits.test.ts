import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LimitDecision, memoryLimitStore } from '../auth/rate-limiter';
import { SignInLockout } from '../auth/sign-in-lockout';
import { redisLimitStore } from './redis-limits';

/*
 * The Redis store of the sign-in limits (docs/adr/0020-server-replicas.md) answers exactly as the
 * in-memory one for the same attempts at the same times, and two stores on one Redis (two replicas)
 * count one limit. Against the throw-away Redis of the test set-up.
 */

const url = process.env.AQA_TEST_REDIS_URL ?? '';
let redis: Redis;

beforeAll(() => {
  redis = new Redis(url);
});

afterAll(async () => {
  await redis?.quit();
});

describe.skipIf(url === '')('the Redis limit store', () => {
  it('gives the in-memory window’s decisions and Retry-After for the same attempts and times', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const settings = { limit: 3, windowMs: 60_000 };
    // A fresh name per test run: the keys of earlier runs cannot interfere.
    const name = `test-${randomBytes(6).toString('hex')}`;
    const memory = memoryLimitStore(clock).window(name, settings);
    const shared = (await redisLimitStore(redis, clock)).window(name, settings);
    const both = async (step: (w: typeof memory) => Promise<LimitDecision | void>) => {
      const [m, r] = [await step(memory), await step(shared)];
      expect(r).toEqual(m);
      return m;
    };
    const steps: [number, (w: typeof memory) => Promise<LimitDecision | void>][] = [
      [0, (w) => w.consume('k')],
      [1_000, (w) => w.consume('k')],
      [20_000, (w) => w.consume('k')],
      [5_000, (w) => w.consume('k')], // refused: the first leaves the window in 34 s
      [5_000, (w) => w.check('k')],
      [29_000, (w) => w.consume('k')], // the first has left: allowed
      [0, (w) => w.consume('other')],
      [0, (w) => w.record('k')],
      [0, (w) => w.check('k')],
      [0, (w) => w.reset('k')],
      [0, (w) => w.consume('k')],
    ];
    const decisions: (LimitDecision | void)[] = [];
    for (const [advance, step] of steps) {
      now += advance;
      decisions.push(await both(step));
    }
    expect(decisions[3]).toEqual({ allowed: false, retryAfterS: 34 });
    expect(decisions[4]).toEqual({ allowed: false, retryAfterS: 29 });
    expect(decisions[5]).toEqual({ allowed: true, retryAfterS: 0 });
    expect(decisions[8]).toMatchObject({ allowed: false });
    expect(decisions[10]).toEqual({ allowed: true, retryAfterS: 0 });
  });

  it('counts one lock-out across two stores on one Redis, and knows an address either signed in from', async () => {
    const now = () => Date.now();
    const account = `${randomBytes(6).toString('hex')}@x.test`;
    const options = { failuresPerAddress: 1, windowMs: 60_000, now };
    const a = new SignInLockout({ ...options, store: await redisLimitStore(redis, now) });
    const b = new SignInLockout({ ...options, store: await redisLimitStore(redis, now) });
    await a.recordSuccess(account, '192.0.2.1');
    // Four failures, half through each: the account's budget is spent.
    for (let i = 0; i < 4; i++) await (i % 2 === 0 ? a : b).recordFailure(account, `203.0.113.${i}`);
    expect((await b.checkAccount(account)).allowed).toBe(false);
    expect((await b.checkAddress(account, '203.0.113.0')).allowed).toBe(false);
    // The address it signed in from through A is known through B too.
    expect(await b.isKnown(account, '192.0.2.1')).toBe(true);
    expect(await b.isKnown(account, '198.51.100.9')).toBe(false);
  });
});
