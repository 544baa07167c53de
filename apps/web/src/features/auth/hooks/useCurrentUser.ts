import { contract } from '@aqa/contract';
import { routeKey, useRouteLoader, viewOf } from '@/lib/queries';
import { fetchCurrentUser } from '../queries/auth-api';

/** The signed-in user as the server has them (GET /api/me), through the query cache. */
export function useCurrentUser() {
  return viewOf(useRouteLoader('current-user', routeKey(contract.account.me), fetchCurrentUser));
}
