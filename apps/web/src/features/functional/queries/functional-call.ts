import { sessionUserId } from '@/lib/session';

/**
 * What every call under /api/functional sends (docs/reference/02-running.md §7): the signed-in user's
 * email as user_email (the server refuses one naming anyone else); '' is sent as no email at all.
 */
export function userEmail(): string | undefined {
  return sessionUserId() || undefined;
}
