import { hasInvisibleCharacter, normalizeEmail } from '@aqa/plan';
import type { UserRepository } from '../repositories/user.repository';

/** An account whose stored address can no longer be signed in with as it reads. */
export interface EmailProblem {
  accountId: string;
  /** The stored address with its invisible characters written out (`\u{200B}`), for a log line. */
  email: string;
  message: string;
}

/** Writes out each character no one sees as \u{…}, so the operator sees where it is. */
export function visibleEmail(email: string): string {
  return [...email]
    .map((char) =>
      hasInvisibleCharacter(char) ? `\\u{${char.codePointAt(0)!.toString(16).toUpperCase()}}` : char,
    )
    .join('');
}

/**
 * Accounts made before emails were keyed by NFKC and refused with invisible characters
 * (docs/adr/0018-safe-defaults-and-lockout.md): an address holding an invisible character, which sign-in
 * now refuses, and one that reads as another account's address, which migration 0017 left on its old key
 * (the account already holding the key keeps it). Each cannot sign in as it is; the operator is told at
 * every start until they change it (docs/operations.md §8).
 */
export async function accountEmailProblems(users: UserRepository): Promise<EmailProblem[]> {
  const problems: EmailProblem[] = [];
  for (const row of await users.listEmails()) {
    const email = visibleEmail(row.email);
    if (hasInvisibleCharacter(row.email)) {
      problems.push({
        accountId: row.id,
        email,
        message: `The account ${row.id} has the email "${email}", which holds invisible characters; sign-in refuses such an address, so it cannot sign in until its email is changed (docs/operations.md §8)`,
      });
    } else if (normalizeEmail(row.email) !== row.email_normalized) {
      problems.push({
        accountId: row.id,
        email,
        message: `The account ${row.id} has the email "${email}", which reads as "${normalizeEmail(row.email)}", the email of another account; signing in with it reaches that account, so it cannot sign in until its email is changed (docs/operations.md §8)`,
      });
    }
  }
  return problems;
}
