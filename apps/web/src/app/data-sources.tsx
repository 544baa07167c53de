import type { ReactNode } from 'react';
import { fetchRecentResults, RecentResultsContext, type RecentResultsSource } from '@/features/dashboard';
import { PlanTextCommandContext, requestTextCommand, type PlanTextCommandSource } from '@/features/plans';

/** Data that built features provide to screens. Absent → the consumer shows its empty state, no fetch. */
export interface DataSources {
  /** Recent Activity on the home dashboard (GET /api/get-test-results). */
  recentResults?: RecentResultsSource;
  /** The text-command parser of saved plans (POST /api/update-test-plan-command); absent → no panel. */
  planTextCommand?: PlanTextCommandSource;
}

/**
 * The registered sources. Only the router uses them (through `DataSourcesProvider`), so features never
 * import the app; a test may swap one out before it renders the app.
 */
export const DATA_SOURCES: DataSources = {
  recentResults: fetchRecentResults,
  planTextCommand: requestTextCommand,
};

/** Hands the registered sources to the screens, read on every render so a swapped source is seen. */
export function DataSourcesProvider({ children }: { children: ReactNode }) {
  return (
    <RecentResultsContext value={DATA_SOURCES.recentResults}>
      <PlanTextCommandContext value={DATA_SOURCES.planTextCommand}>{children}</PlanTextCommandContext>
    </RecentResultsContext>
  );
}
