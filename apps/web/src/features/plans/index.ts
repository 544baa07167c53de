/**
 * What other features (and the router) may use of the plans feature (the lint rule of eslint.config.js
 * lets them import `@/features/plans` and nothing deeper). The plan screens are loaded by the router; the
 * call editor they share with the functional editors is @/features/call-editor.
 */
export { appliedMessage, describeChange } from './model/text-command-text';
export type { SavedPlan } from './queries/plans-api';
export {
  PlanTextCommandContext,
  requestTextCommand,
  type ParsedUpdate,
  type PlanTextCommandSource,
} from './queries/text-command';
