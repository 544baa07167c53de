import { type Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * Algorithm.Argon2id. The package declares Algorithm as an ambient const enum whose runtime object
 * is empty, so under isolatedModules the member cannot be read at run time; the value is fixed by
 * the argon2 reference implementation.
 */
const ARGON2ID = 2 as Algorithm.Argon2id;

/** OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane), stated so a library default change cannot weaken it. */
const HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, HASH_OPTIONS);
}

/** False for a wrong password and for a hash that cannot be parsed (never throws on bad input). */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Makes the dummy hash now, at start-up, so the first sign-in naming an unknown account does not take
 * a hash longer than any other (docs/adr/0018-safe-defaults-and-lockout.md).
 */
export function prepareDummyHash(): void {
  dummyHash ??= hashPassword('dummy password that no account has');
  // A failure shows at the first sign-in that awaits it; nothing waits on it here.
  dummyHash.catch(() => undefined);
}

/**
 * Spends the same work as checking a real password, for sign-ins naming an unknown account, so
 * response time does not reveal which emails are registered. Always resolves to false.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  prepareDummyHash();
  await verifyPassword(await dummyHash!, password);
  return false;
}
