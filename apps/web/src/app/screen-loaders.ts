import type { ComponentType } from 'react';
import type { BuiltScreenId } from '@/lib/screens';

/** A screen module: its default export is the page component, rendered inside the signed-in shell. */
export type ScreenModule = { default: ComponentType };
export type ScreenLoader = () => Promise<ScreenModule>;

/**
 * How each built screen is loaded: on first visit, as its own chunk. Only the router (src/app/routes.tsx)
 * uses this table; everything else asks `isScreenAvailable` in src/lib/screens.ts, which imports no
 * feature. The type makes a screen listed as built without a loader (or the reverse) a type error.
 * Writable so that a test can stand in a page of its own for a screen.
 */
export const SCREEN_LOADERS: Record<BuiltScreenId, ScreenLoader> = {
  dashboard: () => import('@/features/dashboard/components/HomeDashboard'),
  createTestUrl: () => import('@/features/plans/components/UrlInputPage'),
  createTestScript: () => import('@/features/plans/components/ScriptInputPage'),
  testResult: () => import('@/features/results/components/TestResultPage'),
  performanceDashboard: () =>
    import('@/features/history/components/performance-dashboard/PerformanceDashboardPage'),
  functionalDashboard: () => import('@/features/functional/board/components/FunctionalDashboardPage'),
  functionalResult: () => import('@/features/functional/result/components/FunctionalResultPage'),
  previousResults: () => import('@/features/history/components/previous-results/PreviousResultsPage'),
  compareResults: () => import('@/features/history/components/compare/CompareResultsPage'),
  profile: () => import('@/features/profile/components/ProfilePage'),
  settings: () => import('@/features/settings/components/SettingsPage'),
  notifications: () => import('@/features/settings/components/NotificationsPage'),
  functionalUrl: () => import('@/features/functional/editor/components/FunctionalUrlInputPage'),
  functionalScript: () => import('@/features/functional/script/components/FunctionalScriptInputPage'),
  functionalUi: () => import('@/features/functional/ui-editor/components/UiFunctionalTestPage'),
  downloadApp: () => import('@/features/download/components/DownloadAppPage'),
  messages: () => import('@/features/messages/components/MessagesPage'),
  feedback: () => import('@/features/feedback/components/FeedbackPage'),
  schedules: () => import('@/features/schedules/components/SchedulesPage'),
  workspace: () => import('@/features/workspaces/components/WorkspacePage'),
  invite: () => import('@/features/workspaces/components/InvitePage'),
};
