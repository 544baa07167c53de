import type { User } from '@aqa/plan';
import type { UserRow } from '../db/schema';

/** The signed-in user as services pass it around: the public fields plus the id, never the hash. */
export interface AccountUser extends User {
  id: string;
}

export function toAccountUser(row: UserRow): AccountUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    company: row.company,
    role: row.role,
  };
}

/** The user as the API shows it (UserSchema): drops the id as well. */
export function toPublicUser(user: AccountUser): User {
  return {
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    company: user.company,
    role: user.role,
  };
}

/** The one key of an email for lookups, uniqueness and the lock-out: NFKC, lower case, trimmed (@aqa/plan). */
export { normalizeEmail } from '@aqa/plan';
