import { contract } from '@aqa/contract';
import { routeKey, useRouteLoader, viewOf } from '@/lib/queries';
import { fetchDemoCredentials } from '../queries/auth-api';

/** The demo account and whether sign-up is open: one cache entry for Sign In and Register. */
export function useDemoCredentials() {
  return viewOf(
    useRouteLoader('demo-credentials', routeKey(contract.system.demoCredentials), fetchDemoCredentials),
  );
}
