import { ApiError } from '@/lib/api';

/**
 * docs/reference/02-running.md §8 "Functional dashboard": a failed fetch, a 404 or a 500 shows the empty
 * state with the backend Disconnected; any other error shows the long load message.
 */
export function meansDisconnected(error: unknown): boolean {
  if (error instanceof ApiError) {
    return (
      error.kind === 'network' || error.kind === 'timeout' || error.status === 404 || error.status === 500
    );
  }
  return error instanceof TypeError;
}

export type BackendState = 'checking' | 'connected' | 'disconnected';

/** The badge: Checking... until the health check answers; Disconnected when it or a list call says so. */
export function backendState(
  health: { status: 'loading' | 'success' | 'error'; ok?: boolean },
  listsDisconnected: boolean,
): BackendState {
  if (listsDisconnected) return 'disconnected';
  if (health.status === 'loading') return 'checking';
  return health.status === 'success' && health.ok ? 'connected' : 'disconnected';
}
