import type { FunctionalResult } from '@aqa/plan';

export interface BoardCounters {
  total: number;
  completed: number;
  failed: number;
  running: number;
}

/**
 * docs/reference/02-running.md §2: Total Tests, Completed, Failed, Running — over the user's runs. A run
 * interrupted by a server that stopped did not complete: it counts with the failed ones, as load runs do
 * (docs/adr/0016-crash-recovery.md).
 */
export function countResults(results: readonly Pick<FunctionalResult, 'status'>[]): BoardCounters {
  const by = (status: string) => results.filter((result) => result.status === status).length;
  return {
    total: results.length,
    completed: by('completed'),
    failed: by('failed') + by('interrupted'),
    running: by('running'),
  };
}
