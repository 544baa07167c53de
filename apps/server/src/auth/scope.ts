import type { FastifyRequest } from 'fastify';
import { ForbiddenError } from '../errors';
import { normalizeEmail } from '../services/account-user';
import { requireAuth } from './authenticate';

export const USER_MISMATCH_MESSAGE = 'user_email does not match the signed-in user';

/**
 * Plans and results are scoped by a `user_email` that the spec's client sends in the query or body
 * (docs/reference/01-authoring.md §6). The server trusts the token, not that field: naming anyone else is refused (403),
 * and an absent or blank user_email simply means "the signed-in user".
 */
export function assertSameUser(request: FastifyRequest, userEmail?: string | null): void {
  const { user } = requireAuth(request);
  const named = normalizeEmail(userEmail ?? '');
  if (named === '') return;
  if (named !== normalizeEmail(user.email) && named !== normalizeEmail(user.username)) {
    throw new ForbiddenError('USER_MISMATCH', USER_MISMATCH_MESSAGE, {
      hint: 'Leave user_email out, or send the email of the account you are signed in with.',
    });
  }
}
