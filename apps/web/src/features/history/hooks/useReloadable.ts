import { useEffect, useState } from 'react';
import { isAbortError } from '@/lib/api';

export type Reloadable<T> =
  | { status: 'loading'; data: T | null }
  | { status: 'success'; data: T }
  | { status: 'error'; error: unknown; data: T | null };

/**
 * Loads with `load` whenever it changes (memoise it on its inputs) or `reloadKey` changes, cancelling the
 * previous request. The last answer stays available while the next one loads, so a list refreshing after
 * an action does not flash back to its loading state.
 */
export function useReloadable<T>(
  load: (signal: AbortSignal) => Promise<T>,
  reloadKey: unknown,
): Reloadable<T> {
  const [state, setState] = useState<{ load: unknown; key: unknown; value: Reloadable<T> }>({
    load,
    key: reloadKey,
    value: { status: 'loading', data: null },
  });

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted)
          setState({ load, key: reloadKey, value: { status: 'success', data } });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        setState((previous) => ({
          load,
          key: reloadKey,
          value: { status: 'error', error, data: previous.value.data },
        }));
      },
    );
    return () => controller.abort();
  }, [load, reloadKey]);

  if (state.load === load && Object.is(state.key, reloadKey)) return state.value;
  return { status: 'loading', data: state.value.data };
}
