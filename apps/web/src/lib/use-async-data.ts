import { useEffect, useState } from 'react';
import { isAbortError } from './api';

export type AsyncData<T> =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'success'; data: T }
  | { status: 'error'; error: unknown };

/**
 * Runs `load` once on mount (and again when `reloadKey` changes), cancelling it on unmount. `load` must be
 * stable (a module-level function); pass null to fetch nothing — the state then stays `idle`.
 */
export function useAsyncData<T>(
  load: ((signal: AbortSignal) => Promise<T>) | null | undefined,
  reloadKey: unknown = 0,
): AsyncData<T> {
  const [state, setState] = useState<{ key: unknown; value: AsyncData<T> }>({
    key: reloadKey,
    value: load ? { status: 'loading' } : { status: 'idle' },
  });

  useEffect(() => {
    if (!load) return;
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ key: reloadKey, value: { status: 'success', data } });
      },
      (error: unknown) => {
        if (!controller.signal.aborted && !isAbortError(error)) {
          setState({ key: reloadKey, value: { status: 'error', error } });
        }
      },
    );
    return () => controller.abort();
  }, [load, reloadKey]);

  // A new reloadKey shows "loading" at once, without a synchronous state update inside the effect.
  if (!load) return { status: 'idle' };
  return Object.is(state.key, reloadKey) ? state.value : { status: 'loading' };
}
