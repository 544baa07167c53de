import { contract } from '@aqa/contract';
import { routeKey, useRouteLoader, viewOf } from '@/lib/queries';
import { fetchCurrentUser } from '../queries/auth-api';

/**
 * The signed-in user as the server has them (GET /api/me), through the query cache: one entry for the
 * shell's check of the session and the Profile screen.
 */
export function useCurrentUser(options: { enabled?: boolean } = {}) {
  return viewOf(
    useRouteLoader('current-user', routeKey(contract.account.me), fetchCurrentUser, {
      enabled: options.enabled ?? true,
    }),
  );
}
