import { describe, expect, it } from 'vitest';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import { bearerToken, hashToken, newApiToken, newSessionToken } from './tokens';

describe('passwords', () => {
  it('are hashed with argon2id and verified', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    expect(await verifyPassword(hash, 'wrong horse')).toBe(false);
  });

  it('a malformed stored hash verifies as false instead of throwing', async () => {
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
  });

  it('the dummy check always fails', async () => {
    expect(await verifyAgainstDummy('dummy password that no account has')).toBe(false);
  });
});

describe('tokens', () => {
  it('are 32 random bytes in base64url', () => {
    const a = newSessionToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(newSessionToken()).not.toBe(a);
  });

  it('for CI start "aqa_" and carry 32 random bytes; a session token never starts so', () => {
    const token = newApiToken();
    expect(token).toMatch(/^aqa_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.slice(4), 'base64url')).toHaveLength(32);
    expect(bearerToken(`Bearer ${token}`)).toBe(token);
    for (let i = 0; i < 1000; i++) expect(newSessionToken().startsWith('aqa_')).toBe(false);
  });

  it('are stored as sha256 hex', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('are read from a Bearer header only', () => {
    expect(bearerToken('Bearer abc_DEF-123')).toBe('abc_DEF-123');
    expect(bearerToken('bearer   abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
