/**
 * What other features (and the router) may use of the plans feature (the lint rule of eslint.config.js
 * lets them import `@/features/plans` and nothing deeper). The plan screens are loaded by the router.
 */
export { NativeSelect } from './components/NativeSelect';
// The call editor's parts the functional API editor reuses (headers, parameters, authorization, the
// card's controls and headings) and the editor screens' plan state.
export {
  ApiCardControls,
  ApiTabTrigger,
  MethodSelect,
  methodTone,
  SectionTitle,
} from './components/ApiCardParts';
export { AuthorizationFields } from './components/AuthorizationFields';
export {
  PlanLoadErrorAlert,
  PlanLoadingAlert,
  PlanStateBadge,
  SaveStatus,
  STICKY_FOOTER_CLASS,
} from './components/EditorStatus';
export { KeyValueRows } from './components/KeyValueRows';
export { useEditorAddress, useEditorKey } from './hooks/useEditorAddress';
export { isReplacedAuthorizationHeader } from './model/authorization-header';
export { authorizationToModel } from './model/form-to-plan';
export {
  CURRENT_TEST_CONFIG_KEY,
  CURRENT_TEST_ID_KEY,
  handOffRun,
  LOAD_SAVED_PLAN_ID_KEY,
} from './model/hand-off';
export {
  authFormOf,
  createEntry,
  createPlanForm,
  liftAuthorizationHeader,
  movedWithin,
  newId,
  planFormReducer,
  rowsOf,
  withCopyAfter,
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
