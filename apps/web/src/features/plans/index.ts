/**
 * What other features (and the router) may use of the plans feature (the lint rule of eslint.config.js
 * lets them import `@/features/plans` and nothing deeper). The plan screens are loaded by the router.
 */
export { NativeSelect } from './components/NativeSelect';
// The call editor's parts the functional API editor reuses (headers, parameters, authorization).
export { AuthorizationFields } from './components/AuthorizationFields';
export { KeyValueRows } from './components/KeyValueRows';
export { useEditorAddress, useEditorKey } from './hooks/useEditorAddress';
export { authorizationFromHeaderValue, isReplacedAuthorizationHeader } from './model/authorization-header';
export { authorizationToModel } from './model/form-to-plan';
export {
  CURRENT_TEST_CONFIG_KEY,
  CURRENT_TEST_ID_KEY,
  clearPlanHandOff,
  handOffRun,
  LOAD_SAVED_PLAN_ID_KEY,
} from './model/hand-off';
export {
  createEntry,
  createPlanForm,
  emptyAuth,
  emptyRow,
  newId,
  planFormReducer,
  type AuthForm,
  type EntryForm,
  type KeyValueRow,
  type PlanFormAction,
} from './model/plan-form';
export { appliedMessage, describeChange } from './model/text-command-text';
export { callErrorMessage } from './plan-messages';
export type { SavedPlan } from './queries/plans-api';
export {
  PlanTextCommandContext,
  requestTextCommand,
  type ParsedUpdate,
  type PlanTextCommandSource,
} from './queries/text-command';
