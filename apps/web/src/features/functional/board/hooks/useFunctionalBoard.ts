import type { FunctionalResult } from '@aqa/plan';
import { contract } from '@aqa/contract';
import { useCallback } from 'react';
import { routeKey, routesKey, useRouteLoader, viewOf } from '@/lib/queries';
import { sessionUserEmail } from '@/lib/session';
import { fetchFunctionalPlans, type SavedFunctionalPlan } from '../../queries/plan-api';
import { fetchFunctionalResults, fetchHealth } from '../../queries/result-api';
import { backendState, meansDisconnected, type BackendState } from '../model/board-errors';

export interface BoardData {
  results: FunctionalResult[];
  plans: SavedFunctionalPlan[];
}

/** The cache key of the board: the runs and the plans, as the two calls ask them. */
const boardKey = () => {
  const input = { query: { user_email: sessionUserEmail() } };
  return routesKey(routeKey(contract.functional.results, input), routeKey(contract.functional.list, input));
};

async function loadBoard(signal: AbortSignal): Promise<BoardData> {
  const [results, plans] = await Promise.all([fetchFunctionalResults(signal), fetchFunctionalPlans(signal)]);
  return { results, plans };
}

const loadHealth = async (signal: AbortSignal) => {
  const answer = await fetchHealth(signal);
  return answer.status === 'ok' && (answer.database === undefined || answer.database === 'ok');
};

export interface FunctionalBoard {
  /** Null while loading. */
  data: BoardData | null;
  loading: boolean;
  /** A load error that is not a disconnection: the long message of docs/reference/02-running.md §8. */
  failed: boolean;
  backend: BackendState;
  reload: () => void;
}

/** The functional dashboard's data: its runs and plans, and the health check made on load. */
export function useFunctionalBoard(): FunctionalBoard {
  const boardQuery = useRouteLoader('functional-board', boardKey(), loadBoard);
  const healthQuery = useRouteLoader('health-ok', routeKey(contract.system.health), loadHealth);
  const board = viewOf(boardQuery);
  const health = viewOf(healthQuery);
  const { refetch: refetchBoard } = boardQuery;
  const { refetch: refetchHealth } = healthQuery;
  // Refresh, and after a delete: the runs and plans and the health check again.
  const reload = useCallback(() => {
    void refetchBoard();
    void refetchHealth();
  }, [refetchBoard, refetchHealth]);

  const disconnected = board.status === 'error' && meansDisconnected(board.error);
  const data = board.status === 'success' ? board.data : disconnected ? { results: [], plans: [] } : null;
  return {
    data,
    loading: board.status === 'loading' || board.status === 'idle',
    failed: board.status === 'error' && !disconnected,
    backend: backendState(
      health.status === 'success'
        ? { status: 'success', ok: health.data }
        : { status: health.status === 'error' ? 'error' : 'loading' },
      disconnected,
    ),
    reload,
  };
}
