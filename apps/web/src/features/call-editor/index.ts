/**
 * The call editor both plan editors share (docs/style.md "Layout"): one HTTP call's form and reducer
 * (URL, method, parameter and header rows, authorization, payload), the card's controls and request tabs,
 * the editor screens' status and address, the hand-off between screens through browser storage, and the
 * translation of the model's messages. The performance editor (plans) and the functional editors
 * (functional) use it and not each other; the lint rule of eslint.config.js lets them import
 * `@/features/call-editor` and nothing deeper.
 */
export { callErrorMessage, translateCallMessage } from './call-messages';
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
export {
  usePlanLifecycle,
  type LifecycleBusy,
  type PlanStore,
  type ReadPlan,
} from './hooks/usePlanLifecycle';
export { isReplacedAuthorizationHeader } from './model/authorization-header';
export {
  authFormOf,
  authorizationToModel,
  canMoveDown,
  canMoveUp,
  copyEntry,
  createEntry,
  defaultTab,
  emptyAuth,
  emptyRow,
  ENTRY_TABS,
  entryFormReducer,
  liftAuthorizationHeader,
  movedWithin,
  newId,
  rowsOf,
  withCopyAfter,
  type AssertionOperator,
  type AssertionType,
  type EntryForm,
  type EntryFormAction,
  type EntryTab,
  type EntryValueField,
  type ExtractType,
  type KeyValueRow,
  type ValidationType,
} from './model/entry-form';
export {
  clearPlanHandOff,
  CURRENT_TEST_CONFIG_KEY,
  CURRENT_TEST_ID_KEY,
  handOffPlan,
  handOffPlanId,
  LOAD_SAVED_PLAN_ID_KEY,
  peekPlanHandOff,
  planIdOf,
} from './model/hand-off';
