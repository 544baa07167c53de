import { describe, expect, it } from 'vitest';
import { SignInLockout } from './sign-in-lockout';

function lockout(failuresPerAddress = 1) {
  let now = 1_000_000;
  const instance = new SignInLockout({ failuresPerAddress, windowMs: 60_000, now: () => now });
  return { instance, advance: (ms: number) => (now += ms) };
}

/** Spends the unknown addresses' budget of `account` (4 failures at a limit of 1) from fresh addresses. */
async function spendUnknownBudget(instance: SignInLockout, account: string) {
  for (let i = 0; i < 4; i++) await instance.recordFailure(account, `203.0.113.${i}`);
}

describe('SignInLockout (docs/adr/0018-safe-defaults-and-lockout.md)', () => {
  it('counts per account: one account spent does not touch another', async () => {
    const { instance } = lockout();
    await spendUnknownBudget(instance, 'a@x.test');
    expect((await instance.check('a@x.test', '198.51.100.1')).allowed).toBe(false);
    expect((await instance.check('b@x.test', '198.51.100.1')).allowed).toBe(true);
  });

  it('remembers the 10 most recent known addresses of an account, not more', async () => {
    const { instance } = lockout();
    for (let i = 0; i <= 10; i++) await instance.recordSuccess('a@x.test', `192.0.2.${i}`);
    await spendUnknownBudget(instance, 'a@x.test');
    // 192.0.2.0 was the eleventh back: forgotten, so unknown and refused; 192.0.2.1 is still known.
    expect((await instance.check('a@x.test', '192.0.2.0')).allowed).toBe(false);
    expect((await instance.check('a@x.test', '192.0.2.1')).allowed).toBe(true);
  });

  it('lets every address in again once the failures leave the window', async () => {
    const { instance, advance } = lockout();
    await spendUnknownBudget(instance, 'a@x.test');
    expect(await instance.check('a@x.test', '203.0.113.0')).toEqual({ allowed: false, retryAfterS: 60 });
    advance(60_000);
    expect((await instance.check('a@x.test', '203.0.113.0')).allowed).toBe(true);
  });
});
