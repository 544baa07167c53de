/**
 * The target guard (docs/design.md §11, docs/adr/0015-target-guard.md): what every request sent on a
 * user's behalf asks first.
 */
export {
  TargetGuard,
  TargetRefusedError,
  portOf,
  type Resolver,
  type TargetDecision,
  type TargetGuardOptions,
  type TargetGuardSettings,
  type TargetLists,
} from './guard';
export { checkableUrl } from './checkable-url';
export { guardedConnector } from './connector';
export {
  RedirectNotFollowedError,
  requestFollowingRedirects,
  type FollowRedirectsOptions,
  type FollowedResponse,
} from './redirects';
export { parseTargetRule, parseTargetRules, type TargetRule } from './rules';
