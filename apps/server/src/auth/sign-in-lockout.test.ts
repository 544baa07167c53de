import { describe, expect, it } from 'vitest';
import { SignInLockout } from './sign-in-lockout';

function lockout(failuresPerAddress = 1) {
  let now = 1_000_000;
  const instance = new SignInLockout({ failuresPerAddress, windowMs: 60_000, now: () => now });
  return { instance, advance: (ms: number) => (now += ms) };
}

/** Spends the account's budget (4 failures at a limit of 1) from fresh addresses. */
async function spendAccountBudget(instance: SignInLockout, account: string) {
  for (let i = 0; i < 4; i++) await instance.recordFailure(account, `203.0.113.${i}`);
}

describe('SignInLockout (docs/adr/0018-safe-defaults-and-lockout.md)', () => {
  it('counts per account: one account spent does not touch another', async () => {
    const { instance } = lockout();
    await spendAccountBudget(instance, 'a@x.test');
    expect((await instance.checkAccount('a@x.test')).allowed).toBe(false);
    expect((await instance.checkAccount('b@x.test')).allowed).toBe(true);
    // Each address spent its own budget for a@x.test, and only for it.
    expect((await instance.checkAddress('a@x.test', '203.0.113.0')).allowed).toBe(false);
    expect((await instance.checkAddress('a@x.test', '198.51.100.1')).allowed).toBe(true);
    expect((await instance.checkAddress('b@x.test', '203.0.113.0')).allowed).toBe(true);
  });

  it('counts a known address like any other, so the counts of an account and an unknown email move alike', async () => {
    const { instance } = lockout(2);
    await instance.recordSuccess('a@x.test', '192.0.2.1');
    for (const account of ['a@x.test', 'ghost@x.test']) {
      for (let i = 0; i < 2; i++) await instance.recordFailure(account, '192.0.2.1');
      for (let i = 0; i < 6; i++) await instance.recordFailure(account, `203.0.113.${i}`);
    }
    expect(await instance.checkAccount('a@x.test')).toEqual(await instance.checkAccount('ghost@x.test'));
    expect((await instance.checkAccount('a@x.test')).allowed).toBe(false);
    expect(await instance.checkAddress('a@x.test', '192.0.2.1')).toEqual(
      await instance.checkAddress('ghost@x.test', '192.0.2.1'),
    );
  });

  it('remembers the 10 most recent known addresses of an account, not more', async () => {
    const { instance } = lockout();
    for (let i = 0; i <= 10; i++) await instance.recordSuccess('a@x.test', `192.0.2.${i}`);
    // 192.0.2.0 was the eleventh back: forgotten; 192.0.2.1 is still known.
    expect(await instance.isKnown('a@x.test', '192.0.2.0')).toBe(false);
    expect(await instance.isKnown('a@x.test', '192.0.2.1')).toBe(true);
    expect(await instance.isKnown('b@x.test', '192.0.2.1')).toBe(false);
  });

  it('lets every address in again once the failures leave the window', async () => {
    const { instance, advance } = lockout();
    await spendAccountBudget(instance, 'a@x.test');
    expect(await instance.checkAccount('a@x.test')).toEqual({ allowed: false, retryAfterS: 60 });
    advance(60_000);
    expect((await instance.checkAccount('a@x.test')).allowed).toBe(true);
    expect((await instance.checkAddress('a@x.test', '203.0.113.0')).allowed).toBe(true);
  });
});
