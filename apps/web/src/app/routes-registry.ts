import { generatePath } from 'react-router';
import type { ComponentType } from 'react';
import type { MessageKey } from '@/i18n/en';
import { fetchRecentResults, type RecentResultsSource } from '@/features/dashboard/queries/recent-results';
import { requestTextCommand, type PlanTextCommandSource } from '@/features/plans/queries/text-command';

/**
 * THE ROUTES REGISTRY — which screens exist.
 *
 * `SCREENS` is the catalogue of every screen the spec names (built or not): its route pattern and its
 * breadcrumbs. `IMPLEMENTED_SCREENS` says which of them are built, and how to load them. Everything that
 * points at a screen (sidebar items, dashboard cards and quick actions, "View All Results", "View Result")
 * refers to it by id and asks `isScreenAvailable(id)`: a screen that is not built yet is shown disabled
 * with a "Coming soon" hint, and its path falls through to the catch-all redirect.
 *
 * To add a screen in a later issue:
 *   1. Export a default React component, e.g. `src/features/plans/components/UrlInputPage.tsx`.
 *   2. Add one line to `IMPLEMENTED_SCREENS`:
 *        createTestUrl: () => import('@/features/plans/components/UrlInputPage'),
 *   3. Adjust its `breadcrumbs` in `SCREENS` if needed (labels are i18n keys; add them to en.ts and ko.ts).
 * The route, the breadcrumbs in the header, and every link to the screen then go live by themselves.
 * Data that a built screen provides to other screens (the dashboard's Recent Activity) is registered the
 * same way in `DATA_SOURCES`.
 */

export type ScreenId =
  | 'dashboard'
  | 'createTestUrl'
  | 'createTestScript'
  | 'testResult'
  | 'performanceDashboard'
  | 'functionalDashboard'
  | 'previousResults'
  | 'compareResults'
  | 'functionalUrl'
  | 'functionalUi'
  | 'functionalScript'
  | 'functionalResult'
  | 'profile'
  | 'settings'
  | 'messages'
  | 'downloadApp'
  | 'feedback';

export interface Crumb {
  label: MessageKey;
  /** Makes the crumb a link (only while that screen is available). */
  to?: ScreenId;
}

export interface ScreenDefinition {
  /** Route pattern, react-router syntax (`/test-result/:testId`). */
  path: string;
  breadcrumbs: readonly Crumb[];
}

const PLANS: Crumb = { label: 'crumb.plans', to: 'dashboard' };
const CREATE_TEST: Crumb = { label: 'crumb.createTest' };
const FUNCTIONAL_TEST: Crumb = { label: 'crumb.functionalTest' };
const ACCOUNT: Crumb = { label: 'crumb.account' };

export const SCREENS: Record<ScreenId, ScreenDefinition> = {
  // Breadcrumbs written in spec 01 §2 "Shell".
  dashboard: { path: '/dashboard', breadcrumbs: [{ label: 'crumb.plans' }] },
  createTestUrl: {
    path: '/create-test/url-input',
    breadcrumbs: [PLANS, CREATE_TEST, { label: 'crumb.inputUrls' }],
  },
  createTestScript: {
    path: '/create-test/script-input',
    breadcrumbs: [PLANS, CREATE_TEST, { label: 'crumb.uploadScript' }],
  },
  testResult: {
    path: '/test-result/:testId',
    breadcrumbs: [PLANS, CREATE_TEST, { label: 'crumb.testResult' }],
  },
  // The spec gives no breadcrumbs for these; ours follow the same pattern.
  performanceDashboard: {
    path: '/performance-dashboard',
    breadcrumbs: [PLANS, { label: 'crumb.performanceDashboard' }],
  },
  functionalDashboard: {
    path: '/functional-dashboard',
    breadcrumbs: [PLANS, { label: 'crumb.functionalDashboard' }],
  },
  previousResults: { path: '/previous-results', breadcrumbs: [PLANS, { label: 'crumb.previousResults' }] },
  // Beyond the spec: two runs side by side (issue #7).
  compareResults: {
    path: '/compare-results',
    breadcrumbs: [
      PLANS,
      { label: 'crumb.previousResults', to: 'previousResults' },
      { label: 'crumb.compareResults' },
    ],
  },
  functionalUrl: {
    path: '/functional-test/url-input',
    breadcrumbs: [PLANS, FUNCTIONAL_TEST, { label: 'crumb.apiTest' }],
  },
  functionalUi: {
    path: '/functional-test/ui-url-input',
    breadcrumbs: [PLANS, FUNCTIONAL_TEST, { label: 'crumb.uiTest' }],
  },
  functionalScript: {
    path: '/functional-test/script-input',
    breadcrumbs: [PLANS, FUNCTIONAL_TEST, { label: 'crumb.functionalScript' }],
  },
  functionalResult: {
    path: '/functional-test-result/:testId',
    breadcrumbs: [PLANS, FUNCTIONAL_TEST, { label: 'crumb.functionalResult' }],
  },
  profile: { path: '/profile', breadcrumbs: [ACCOUNT, { label: 'crumb.profile' }] },
  settings: { path: '/settings', breadcrumbs: [ACCOUNT, { label: 'crumb.settings' }] },
  // Sidebar items whose screens DESIGN.md §5 plans; the paths are ours.
  messages: { path: '/messages', breadcrumbs: [ACCOUNT, { label: 'crumb.messages' }] },
  downloadApp: { path: '/download-app', breadcrumbs: [{ label: 'crumb.downloadApp' }] },
  feedback: { path: '/feedback', breadcrumbs: [{ label: 'crumb.feedback' }] },
};

/** A screen module: its default export is the page component, rendered inside the signed-in shell. */
export type ScreenModule = { default: ComponentType };
export type ScreenLoader = () => Promise<ScreenModule>;

/** The screens that exist. One line per built screen; each is loaded on first visit (its own chunk). */
export const IMPLEMENTED_SCREENS: Partial<Record<ScreenId, ScreenLoader>> = {
  dashboard: () => import('@/features/dashboard/components/HomeDashboard'),
  createTestUrl: () => import('@/features/plans/components/UrlInputPage'),
  createTestScript: () => import('@/features/plans/components/ScriptInputPage'),
  testResult: () => import('@/features/results/components/TestResultPage'),
  performanceDashboard: () =>
    import('@/features/history/components/performance-dashboard/PerformanceDashboardPage'),
  previousResults: () => import('@/features/history/components/previous-results/PreviousResultsPage'),
  compareResults: () => import('@/features/history/components/compare/CompareResultsPage'),
  profile: () => import('@/features/profile/components/ProfilePage'),
  settings: () => import('@/features/settings/components/SettingsPage'),
};

/** Data that built features provide to other screens. Absent → the consumer shows its empty state, no fetch. */
export interface DataSources {
  /** Recent Activity on the home dashboard (GET /api/get-test-results, added with the results screens). */
  recentResults?: RecentResultsSource;
  /**
   * The text-command parser of saved plans (POST /api/update-test-plan-command, added with its issue). Absent →
   * the URL-input screen shows no text-command panel.
   */
  planTextCommand?: PlanTextCommandSource;
}

export const DATA_SOURCES: DataSources = {
  recentResults: fetchRecentResults,
  planTextCommand: requestTextCommand,
};

export function isScreenAvailable(id: ScreenId): boolean {
  return IMPLEMENTED_SCREENS[id] !== undefined;
}

/** The URL of a screen, with its route parameters filled in (`screenPath('testResult', { testId })`). */
export function screenPath(id: ScreenId, params: Record<string, string> = {}): string {
  return generatePath(SCREENS[id].path, params);
}

export function implementedScreenIds(): ScreenId[] {
  return (Object.keys(SCREENS) as ScreenId[]).filter(isScreenAvailable);
}
