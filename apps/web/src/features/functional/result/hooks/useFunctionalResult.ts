import { isFunctionalRunOver, type FunctionalResult } from '@aqa/plan';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError } from '@/lib/api';
import { fetchFunctionalResult, fetchFunctionalStatus, stopFunctionalTest } from '../../queries/result-api';

/** docs/reference/02-running.md §9: the functional status is polled every 5 s. */
export const STATUS_POLL_MS = 5000;

/**
 * A run that will not change any more. docs/reference/02-running.md §4 ends polling on completed or
 * failed; a stopped run cannot start again either, so polling it would only repeat the same answer.
 */
export function isSettled(status: string): boolean {
  return isFunctionalRunOver(status) || status === 'stopped';
}

export interface LiveFunctionalResult {
  result: FunctionalResult | null;
  /** The first load failed (later poll failures are passed over: the next poll tries again). */
  error: unknown;
  stopping: boolean;
  /** Polling the status (the run is still going). */
  polling: boolean;
  /** Stops the run; resolves to the error when the stop failed. */
  stop: () => Promise<{ ok: true } | { ok: false; error: unknown }>;
}

/**
 * The functional result screen's data (docs/reference/02-running.md §4): the result on load, then while
 * the run is going its status every 5 s with the partial result, and the full result once it settles.
 */
export function useFunctionalResult(testId: string, enabled: boolean): LiveFunctionalResult {
  const [result, setResult] = useState<FunctionalResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [stopping, setStopping] = useState(false);
  const [polling, setPolling] = useState(false);
  const [reloads, setReloads] = useState(0);
  const stoppedByUser = useRef(false);

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const { signal } = controller;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const poll = async () => {
      try {
        const { status } = await fetchFunctionalStatus(testId, signal);
        const latest = await fetchFunctionalResult(testId, signal);
        if (signal.aborted) return;
        setResult(latest);
        if (isSettled(status) && isSettled(latest.status)) {
          setPolling(false);
          return;
        }
      } catch (failure) {
        if (signal.aborted || isAbortError(failure)) return;
        // A missed poll is tried again at the next one.
      }
      if (!stoppedByUser.current) timer = setTimeout(() => void poll(), STATUS_POLL_MS);
    };

    fetchFunctionalResult(testId, signal).then(
      (first) => {
        if (signal.aborted) return;
        setResult(first);
        setError(null);
        if (!isSettled(first.status) && !stoppedByUser.current) {
          setPolling(true);
          timer = setTimeout(() => void poll(), STATUS_POLL_MS);
        } else {
          setPolling(false);
        }
      },
      (failure: unknown) => {
        if (!signal.aborted && !isAbortError(failure)) setError(failure);
      },
    );
    return () => {
      controller.abort();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [testId, enabled, reloads]);

  const stop = useCallback(async () => {
    setStopping(true);
    try {
      await stopFunctionalTest(testId);
      // docs/reference/02-running.md §4: stop polling and reload the result.
      stoppedByUser.current = true;
      setPolling(false);
      setReloads((n) => n + 1);
      return { ok: true as const };
    } catch (failure) {
      return { ok: false as const, error: failure };
    } finally {
      setStopping(false);
    }
  }, [testId]);

  return { result, error, stopping, polling, stop };
}
