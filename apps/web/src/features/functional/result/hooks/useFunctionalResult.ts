import { isFunctionalRunOver, type FunctionalResult } from '@aqa/plan';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { invalidateRoutes, useRouteLoader } from '@/lib/queries';
import { RUN_LIST_ROUTES } from '@/lib/run-test';
import {
  fetchFunctionalResult,
  fetchFunctionalStatus,
  liveResultKey,
  stopFunctionalTest,
} from '../../queries/result-api';

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

interface Look {
  result: FunctionalResult;
  /** The status asked before the result already said the run is over. */
  statusSettled: boolean;
}

/**
 * The functional result screen's data (docs/reference/02-running.md §4): the result on load, then while
 * the run is going its status every 5 s with the partial result, and the full result once it settles.
 * The poll is the query's refetchInterval, which answers false once the run is no longer running
 * (docs/adr/0026-server-state-through-tanstack-query.md); it goes on in a hidden tab, as it always did.
 */
export function useFunctionalResult(testId: string, enabled: boolean): LiveFunctionalResult {
  const queryClient = useQueryClient();
  const [stopping, setStopping] = useState(false);
  // Set by a successful Stop Test: the result is loaded once more and no longer polled (§4).
  const [stopped, setStopped] = useState(false);
  // The run whose first look (the result alone) is done; each later look asks the status first.
  const looked = useRef<string | null>(null);

  const query = useRouteLoader(
    'functional-live',
    liveResultKey(testId),
    async (signal): Promise<Look> => {
      const first = looked.current !== testId;
      looked.current = testId;
      const status = first ? null : (await fetchFunctionalStatus(testId, signal)).status;
      const result = await fetchFunctionalResult(testId, signal);
      return { result, statusSettled: status !== null && isSettled(status) };
    },
    {
      enabled,
      // The result, asked after the status, may already show the end the status did not yet.
      refetchInterval: (current) => {
        const look = current.state.data;
        if (!look || stopped || look.statusSettled || isSettled(look.result.status)) return false;
        return STATUS_POLL_MS;
      },
      refetchIntervalInBackground: true,
    },
  );

  const { refetch } = query;
  const stop = useCallback(async () => {
    setStopping(true);
    try {
      await stopFunctionalTest(testId);
      void invalidateRoutes(queryClient, ...RUN_LIST_ROUTES);
      // docs/reference/02-running.md §4: stop polling and reload the result (a first look again).
      setStopped(true);
      looked.current = null;
      void refetch();
      return { ok: true as const };
    } catch (failure) {
      return { ok: false as const, error: failure };
    } finally {
      setStopping(false);
    }
  }, [testId, refetch, queryClient]);

  const result = query.data?.result ?? null;
  // A missed poll is tried again at the next one: only a failed first load is an error.
  const error = result === null && query.isError ? query.error : null;
  const polling = result !== null && !stopped && !isSettled(result.status);
  return { result, error, stopping, polling, stop };
}
