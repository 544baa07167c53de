import { isFunctionalRunOver, type FunctionalResult } from '@aqa/plan';
import { useCallback, useEffect, useState } from 'react';
import { isAbortError } from '@/lib/api';
import { fetchFunctionalResult, fetchFunctionalStatus, stopFunctionalTest } from '../../queries/result-api';

/** docs/reference/02-running.md §9: the functional status is polled every 5 s. */
const STATUS_POLL_MS = 5000;

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
  // Set by a successful Stop Test: the result is loaded once more and no longer polled (§4).
  const [stopped, setStopped] = useState(false);

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const { signal } = controller;
    let timer: ReturnType<typeof setTimeout> | undefined;

    // The first look loads the result; each later one polls the status, then the calls judged so far.
    const look = async (first: boolean) => {
      try {
        const status = first ? null : (await fetchFunctionalStatus(testId, signal)).status;
        const latest = await fetchFunctionalResult(testId, signal);
        if (signal.aborted) return;
        setResult(latest);
        setError(null);
        // The result, asked after the status, may already show the end the status did not yet.
        if (stopped || (status !== null && isSettled(status)) || isSettled(latest.status)) return;
      } catch (failure) {
        if (signal.aborted || isAbortError(failure)) return;
        if (first) {
          setError(failure);
          return;
        }
        // A missed poll is tried again at the next one.
      }
      timer = setTimeout(() => void look(false), STATUS_POLL_MS);
    };

    void look(true);
    return () => {
      controller.abort();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [testId, enabled, stopped]);

  const stop = useCallback(async () => {
    setStopping(true);
    try {
      await stopFunctionalTest(testId);
      // docs/reference/02-running.md §4: stop polling and reload the result (the effect runs again).
      setStopped(true);
      return { ok: true as const };
    } catch (failure) {
      return { ok: false as const, error: failure };
    } finally {
      setStopping(false);
    }
  }, [testId]);

  const polling = result !== null && !stopped && !isSettled(result.status);
  return { result, error, stopping, polling, stop };
}
