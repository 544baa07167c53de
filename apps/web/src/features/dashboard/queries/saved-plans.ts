import { contract } from '@aqa/contract';
import type { SavedPlan } from '@/features/plans';
import { call } from '@/lib/api';

/** The newest saved plans shown on the home dashboard; the rest are on the performance dashboard. */
export const HOME_PLANS_LIMIT = 6;

export interface SavedPlansPage {
  plans: SavedPlan[];
  /** All the user's plans (X-Total-Count). */
  total: number;
}

/** GET /api/get-test-plans, newest first, one page. */
export async function fetchSavedPlans(signal: AbortSignal): Promise<SavedPlansPage> {
  let total: number | null = null;
  const plans = await call(
    contract.plans.list,
    { query: { limit: HOME_PLANS_LIMIT } },
    {
      signal,
      onResponse: (response) => {
        const header = response.headers.get('x-total-count');
        total = header === null ? null : Number(header);
      },
    },
  );
  return { plans, total: total !== null && Number.isFinite(total) ? total : plans.length };
}
