import { generatePath } from 'react-router';
import type { MessageKey } from '@/i18n/en';

/**
 * THE SCREEN CATALOGUE — which screens exist, where they live, and what their breadcrumbs say.
 *
 * `SCREENS` lists every screen the product names (built or not): its route pattern and its breadcrumbs.
 * `BUILT_SCREENS` says which of them are built. Everything that points at a screen (sidebar items,
 * dashboard cards and quick actions, "View All Results", "View Result") refers to it by id and asks
 * `isScreenAvailable(id)`: a screen that is not built yet is shown disabled with a "Coming soon" hint, and
 * its path falls through to the catch-all redirect.
 *
 * This module imports no feature, so any feature, the shell and the router can use it without an import
 * cycle. How a built screen is loaded is the router's business alone: `src/app/screen-loaders.ts`.
 *
 * To add a screen in a later issue:
 *   1. Export a default React component, e.g. `src/features/plans/components/UrlInputPage.tsx`.
 *   2. Add its id to `BUILT` below, and its loader to `SCREEN_LOADERS` in `src/app/screen-loaders.ts`
 *      (the type checker insists on both).
 *   3. Adjust its `breadcrumbs` in `SCREENS` if needed (labels are i18n keys; add them to en.ts and ko.ts).
 * The route, the breadcrumbs in the header, and every link to the screen then go live by themselves.
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
  | 'notifications'
  | 'messages'
  | 'downloadApp'
  | 'feedback'
  | 'schedules'
  | 'workspace'
  | 'invite';

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
  // Breadcrumbs written in docs/reference/01-authoring.md §2 "Shell".
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
    // A run is reached from the functional dashboard, which lists them (issue 24).
    breadcrumbs: [
      PLANS,
      { label: 'crumb.functionalDashboard', to: 'functionalDashboard' },
      { label: 'crumb.functionalResult' },
    ],
  },
  profile: { path: '/profile', breadcrumbs: [ACCOUNT, { label: 'crumb.profile' }] },
  settings: { path: '/settings', breadcrumbs: [ACCOUNT, { label: 'crumb.settings' }] },
  notifications: {
    path: '/settings/notifications',
    breadcrumbs: [ACCOUNT, { label: 'crumb.settings', to: 'settings' }, { label: 'crumb.notifications' }],
  },
  // Sidebar items whose screens docs/design.md §5 plans; the paths are ours.
  messages: { path: '/messages', breadcrumbs: [ACCOUNT, { label: 'crumb.messages' }] },
  downloadApp: { path: '/download-app', breadcrumbs: [{ label: 'crumb.downloadApp' }] },
  feedback: { path: '/feedback', breadcrumbs: [{ label: 'crumb.feedback' }] },
  // Beyond the spec: saved plans run at set times (issue #29, docs/adr/0031-schedules.md).
  schedules: { path: '/schedules', breadcrumbs: [PLANS, { label: 'crumb.schedules' }] },
  // The current workspace, its members and roles (docs/adr/0035-workspaces-and-roles.md).
  workspace: { path: '/workspace', breadcrumbs: [ACCOUNT, { label: 'crumb.workspace' }] },
  // An invite link to a team workspace (docs/adr/0035-workspaces-and-roles.md).
  invite: { path: '/invite/:token', breadcrumbs: [ACCOUNT, { label: 'crumb.invite' }] },
};

/** The screens that are built; each has a loader in `src/app/screen-loaders.ts`. */
const BUILT = [
  'dashboard',
  'createTestUrl',
  'createTestScript',
  'testResult',
  'performanceDashboard',
  'functionalDashboard',
  'functionalResult',
  'previousResults',
  'compareResults',
  'profile',
  'settings',
  'notifications',
  'functionalUrl',
  'functionalScript',
  'functionalUi',
  'downloadApp',
  'messages',
  'feedback',
  'schedules',
  'workspace',
  'invite',
] as const satisfies readonly ScreenId[];

export type BuiltScreenId = (typeof BUILT)[number];

/**
 * The built screens as a set. A set rather than a frozen list so that a test can show a built screen as
 * "not built yet" (and put it back); the product never changes it.
 */
export const BUILT_SCREENS: Set<ScreenId> = new Set(BUILT);

export function isScreenAvailable(id: ScreenId): boolean {
  return BUILT_SCREENS.has(id);
}

/** The URL of a screen, with its route parameters filled in (`screenPath('testResult', { testId })`). */
export function screenPath(id: ScreenId, params: Record<string, string> = {}): string {
  return generatePath(SCREENS[id].path, params);
}
