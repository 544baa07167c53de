import { sessionUserId } from '@/lib/session';

/*
 * What every call under /api/functional shares (docs/reference/02-running.md §7): its path, and the
 * signed-in user's email as user_email (the server refuses one naming anyone else).
 */

export function userEmail(): string | undefined {
  return sessionUserId() ?? undefined;
}

/** `?user_email=…` with any other parameters, or '' when there are none. */
export function userQuery(extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  const email = userEmail();
  if (email) params.set('user_email', email);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** `/functional/{call}` or `/functional/{call}/{id}`, the id encoded. */
export const functionalPath = (call: string, id?: string) =>
  `/functional/${call}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;
