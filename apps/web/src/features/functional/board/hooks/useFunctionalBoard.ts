import type { FunctionalResult } from '@aqa/plan';
import { useCallback, useState } from 'react';
import { useAsyncData } from '@/lib/use-async-data';
import { fetchFunctionalPlans, type SavedFunctionalPlan } from '../../queries/plan-api';
import { fetchFunctionalResults, fetchHealth } from '../../queries/result-api';
import { backendState, meansDisconnected, type BackendState } from '../model/board-errors';

export interface BoardData {
  results: FunctionalResult[];
  plans: SavedFunctionalPlan[];
}

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
  const [reloads, setReloads] = useState(0);
  const board = useAsyncData(loadBoard, reloads);
  const health = useAsyncData(loadHealth, reloads);
  const reload = useCallback(() => setReloads((n) => n + 1), []);

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
