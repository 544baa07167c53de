import { safeMigratePlan, type PerfPlan, type Tool, type ValidationResponse } from '@aqa/plan';
import { use, useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { useNavigate } from 'react-router';
import { isScreenAvailable, screenPath, type ScreenId } from '@/lib/screens';
import { useConfirm } from '@/components/confirm-dialog';
import { useLeaveWarning } from '@/components/leave-warning';
import { useScreenNotices } from '@/components/notices';
import { SaveAbandoned, updateOrResolve, usePlanConflictChoice } from '@/components/plan-conflict';
import { useT } from '@/i18n';
import { ApiError, isAbortError } from '@/lib/api';
import {
  addFieldError,
  checkPlan,
  checkScriptRequest,
  hasErrors,
  NO_ERRORS,
  snapshotForm,
  type FormErrors,
  type FormSnapshot,
  type PlanBody,
} from '../model/form-to-plan';
import {
  clearPlanHandOff,
  handOffPlan,
  handOffPlanId,
  handOffRun,
  peekPlanHandOff,
  planIdOf,
} from '../model/hand-off';
import {
  createPlanForm,
  formFromPlan,
  planFormReducer,
  toolLabel,
  type EntryForm,
  type PlanForm,
} from '../model/plan-form';
import { callErrorMessage, describeFirstProblem } from '../plan-messages';
import {
  createPlan,
  fetchPlan,
  generateScriptOnServer,
  runTest,
  runTestRequest,
  savedIdOf,
  testIdOf,
  updatePlan,
  validatePlan,
  type RunTestRequest,
  type SavedPlan,
} from '../queries/plans-api';
import { PlanTextCommandContext, type TextCommandResponse } from '../queries/text-command';
import { usePublishPerfPlan } from './usePublishPerfPlan';
import { useScriptPreview, type ScriptMode } from './useScriptPreview';
import { useToolLimits, type ToolLimits } from './useToolLimits';
import type { RunChoice } from '@/components/run-elsewhere';

/**
 * Everything a performance authoring screen (URL input, script upload) does with its plan: the form, the
 * script, loading a saved plan (by `?planId=` or the storage hand-off of docs/reference/01-authoring.md §4), Save vs Update,
 * Generate, Validate and Run. Messages the spec writes as alerts are in-app notices (`useNotice`), word for
 * word and in the active language; the tool change asks with the in-app confirmation (`useConfirm`).
 */

type SourcePage = PerfPlan['source_page'];

/** The screen each source page's plans open on (docs/reference/01-authoring.md §2 "Redirect"). */
const SCREEN_OF_SOURCE: Record<SourcePage, ScreenId> = {
  'url-input': 'createTestUrl',
  'script-input': 'createTestScript',
};

type LoadTarget = { kind: 'id'; id: string } | { kind: 'plan'; plan: unknown } | { kind: 'none' };

interface Initial {
  target: LoadTarget;
  form: PlanForm;
  savedId: string | null;
  /** The saved plan's version the form was made from (docs/reference/01-authoring.md §7 "Plan versions"). */
  savedVersion: number | undefined;
  script: { mode: ScriptMode; text: string };
  /** The loaded plan belongs to the other performance screen, which is not built: it opens here. */
  foreignSource: boolean;
  /** A stored plan that could not be read. */
  loadError: boolean;
}

/** Saved-state fingerprint: what Save would send (a generated script follows the plan, so only an edited one counts). */
function fingerprint(body: PlanBody, editedScript: string | undefined): string {
  return JSON.stringify([body, editedScript ?? null]);
}

/** What a validation depends on: the tool and the APIs as sent. */
function validationKeyOf(body: PlanBody): string {
  return JSON.stringify([body.tool, body.urls]);
}

function editedText(script: { mode: ScriptMode; text: string }): string | undefined {
  return script.mode === 'edited' ? script.text : undefined;
}

function scriptStateOf(plan: { script?: string | undefined; script_edited?: boolean | undefined }): {
  mode: ScriptMode;
  text: string;
} {
  if (plan.script_edited && plan.script) return { mode: 'edited', text: plan.script };
  return { mode: plan.script ? 'live' : 'none', text: '' };
}

/** Whether a plan of `plan.source_page` is opened on the screen of `sourcePage` even so. */
function opensHereInstead(plan: PerfPlan, sourcePage: SourcePage): boolean {
  return plan.source_page !== sourcePage && !isScreenAvailable(SCREEN_OF_SOURCE[plan.source_page]);
}

function initialState(planIdParam: string | null, sourcePage: SourcePage): Initial {
  const blank: Initial = {
    target: { kind: 'none' },
    form: createPlanForm(sourcePage),
    savedId: null,
    savedVersion: undefined,
    script: { mode: 'none', text: '' },
    foreignSource: false,
    loadError: false,
  };
  if (planIdParam) return { ...blank, target: { kind: 'id', id: planIdParam } };
  const handOff = peekPlanHandOff();
  if (handOff.kind === 'id') return { ...blank, target: handOff };
  if (handOff.kind === 'plan') {
    const parsed = safeMigratePlan(handOff.plan);
    if (!parsed.success) return { ...blank, target: handOff, loadError: true };
    const record = handOff.plan as { script_edited?: boolean };
    return {
      ...blank,
      target: handOff,
      form: formFromPlan(parsed.data),
      savedId: planIdOf(handOff.plan) ?? null,
      savedVersion: parsed.data.version,
      script: scriptStateOf({ script: parsed.data.script, script_edited: record.script_edited }),
      foreignSource: opensHereInstead(parsed.data, sourcePage),
    };
  }
  return blank;
}

export type Busy = 'generating' | 'saving' | 'validating' | 'running' | 'loading' | null;

export interface PlanEditorOptions {
  planIdParam: string | null;
  /** Puts ?planId= in the address without reloading the screen. */
  rememberPlanId: (id: string) => void;
  /** The screen's source page: new plans are saved with it, and plans of the other screen open there. */
  sourcePage?: SourcePage;
  /** The script's download name; testplan_{tool}_{plan}.{ext} when absent. */
  fileName?: (tool: Tool, planName: string) => string;
}

export function usePlanEditor({
  planIdParam,
  rememberPlanId,
  sourcePage = 'url-input',
  fileName,
}: PlanEditorOptions) {
  const t = useT();
  const notice = useScreenNotices();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const [initial] = useState(() => initialState(planIdParam, sourcePage));
  const [form, dispatch] = useReducer(planFormReducer, initial.form);
  const [savedId, setSavedId] = useState<string | null>(initial.savedId);
  const [savedVersion, setSavedVersion] = useState<number | undefined>(initial.savedVersion);
  const chooseOnConflict = usePlanConflictChoice();
  const [busy, setBusy] = useState<Busy>(initial.target.kind === 'id' ? 'loading' : null);
  const [loadFailed, setLoadFailed] = useState(initial.loadError);
  const [foreignSource, setForeignSource] = useState(initial.foreignSource);
  const [showErrors, setShowErrors] = useState(false);
  /** Where the next run goes: 0 = this server, N = split over N of the user's agents (docs/scale-out.md). */
  const [runAgents, setRunAgents] = useState(0);
  const [serverErrors, setServerErrors] = useState<{ form: PlanForm; errors: FormErrors } | null>(null);
  /** The last validation, with the key of the plan it checked (see `validationKey`). */
  const [validation, setValidation] = useState<{ result: ValidationResponse; key: string } | null>(null);
  const script = useScriptPreview(form, initial.script, fileName);
  /** What the plan's tool, as installed on the server, cannot run of this plan: said before Run. */
  const toolLimits = useToolLimits(form);
  /** The server's TOOL_CANNOT_RUN_PLAN answer to Run or Validate, for the plan it was given. */
  const [toolRefusal, setToolRefusal] = useState<{ form: PlanForm; limits: ToolLimits } | null>(null);
  const [savedFingerprint, setSavedFingerprint] = useState<string | null>(() =>
    initial.savedId ? fingerprint(snapshotForm(initial.form).body, editedText(initial.script)) : null,
  );
  /** A new, blank plan as it opened: nothing to lose until it differs from this. */
  const [blankFingerprint] = useState<string | null>(() =>
    initial.target.kind === 'none' ? fingerprint(snapshotForm(initial.form).body, undefined) : null,
  );

  const check = useMemo(() => checkPlan(form), [form]);
  const currentFingerprint = fingerprint(
    check.snapshot.body,
    editedText({ mode: script.mode, text: script.script }),
  );
  const dirty = savedFingerprint !== currentFingerprint;
  // What the leave-page warning guards (docs/reference/01-authoring.md §4 "Unsaved changes"): edits of a
  // saved plan, or a new plan that is no longer blank — also changes James applied to it.
  const unsaved =
    busy !== 'loading' && !loadFailed && currentFingerprint !== (savedFingerprint ?? blankFingerprint);
  const { allowNextNavigation } = useLeaveWarning(unsaved);

  // --- Loading a saved plan -------------------------------------------------------------------------

  const applySavedPlan = (
    plan: SavedPlan | PerfPlan,
    id: string,
    scriptState: { mode: ScriptMode; text: string },
  ) => {
    const next = formFromPlan(plan);
    dispatch({ type: 'load', form: next });
    setSavedId(id);
    setSavedVersion(plan.version);
    script.setMode(scriptState.mode);
    if (scriptState.mode === 'edited') script.edit(scriptState.text);
    setSavedFingerprint(fingerprint(snapshotForm(next).body, editedText(scriptState)));
    setShowErrors(false);
    setServerErrors(null);
  };

  /** A plan made on the other performance screen opens there, when it exists (docs/reference/01-authoring.md §2 "Redirect"). */
  const redirectToOwnScreen = useCallback(
    (plan: PerfPlan, id: string | undefined, stored?: unknown): boolean => {
      const own = SCREEN_OF_SOURCE[plan.source_page];
      if (plan.source_page === sourcePage || !isScreenAvailable(own)) return false;
      if (id) handOffPlanId(id);
      else if (stored !== undefined) handOffPlan(stored);
      // The plan goes with it (the hand-off), so nothing is lost by leaving.
      allowNextNavigation();
      void navigate(screenPath(own), { replace: true });
      return true;
    },
    [navigate, sourcePage, allowNextNavigation],
  );

  // The hand-off entries are removed once read (docs/reference/01-authoring.md §4); reading happened in the initial state.
  useEffect(() => {
    if (initial.target.kind !== 'none') clearPlanHandOff();
    if (initial.loadError) notice.error(t('plans.loadFailed'));
    if (initial.target.kind === 'plan' && !initial.loadError) {
      const parsed = safeMigratePlan(initial.target.plan);
      const id = planIdOf(initial.target.plan);
      if (parsed.success && !redirectToOwnScreen(parsed.data, id, initial.target.plan) && id)
        rememberPlanId(id);
    }
    // Runs once per screen visit: the screen is remounted for every new visit (see UrlInputPage).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const loadId = initial.target.kind === 'id' ? initial.target.id : null;
  useEffect(() => {
    if (!loadId) return;
    const controller = new AbortController();
    fetchPlan(loadId, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        const parsed = safeMigratePlan(answer);
        if (!parsed.success) {
          setBusy(null);
          setLoadFailed(true);
          notice.error(t('plans.loadFailed'));
          return;
        }
        const id = planIdOf(answer) ?? loadId;
        if (redirectToOwnScreen(parsed.data, id)) return;
        applySavedPlan(parsed.data, id, scriptStateOf(answer));
        setForeignSource(parsed.data.source_page !== sourcePage);
        setBusy(null);
        if (planIdParam !== id) rememberPlanId(id);
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        setBusy(null);
        setLoadFailed(true);
        notice.error(t('plans.loadFailed'));
      },
    );
    return () => controller.abort();
    // The plan is loaded once per screen visit; later renders must not load it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadId]);

  // --- Errors -----------------------------------------------------------------------------------------

  usePublishPerfPlan(form, dispatch, check);

  // Validation results describe the APIs and tool they were made with; once those change they would
  // report on a plan that no longer exists, so they are dropped (name, users and duration do not count:
  // validation sends each API once).
  const validationKey = useMemo(() => validationKeyOf(check.snapshot.body), [check.snapshot.body]);
  if (validation && validation.key !== validationKey) setValidation(null);
  const localErrors = showErrors ? check.errors : NO_ERRORS;
  // Problems the server reported stay until the form changes.
  const errors: FormErrors =
    serverErrors && serverErrors.form === form && !hasErrors(localErrors) ? serverErrors.errors : localErrors;

  const serverFieldErrors = (error: unknown, snapshot: FormSnapshot): FormErrors | null => {
    if (!(error instanceof ApiError) || error.fieldErrors.length === 0) return null;
    const found: FormErrors = { plan: {}, entries: {} };
    for (const { field, message } of error.fieldErrors)
      addFieldError(found, snapshot.sources, field, message);
    return found;
  };

  /** The alert text of a failed call: the first field problem the server named, else its message. */
  const failureText = (error: unknown, snapshot: FormSnapshot): string => {
    const fields = serverFieldErrors(error, snapshot);
    if (fields) {
      setServerErrors({ form, errors: fields });
      return describeFirstProblem(fields, form, t) ?? callErrorMessage(error, t);
    }
    return callErrorMessage(error, t);
  };

  // --- Saving -----------------------------------------------------------------------------------------

  const scriptToSave = script.mode === 'none' ? undefined : script.script || undefined;

  /** docs/reference/01-authoring.md §5 rules for saving and running, in the spec's order; alerts and returns the plan when fine. */
  const readyPlan = (failure: 'plans.saveFailed' | 'plans.runFailed'): PerfPlan | null => {
    // A new attempt: what this screen said before is answered again, or is gone.
    notice.clearErrors();
    if (form.name.trim() === '') {
      setShowErrors(true);
      notice.error(t('plans.error.nameRequired'));
      return null;
    }
    if (!check.snapshot.hasUrl) {
      setShowErrors(true);
      notice.error(t('plans.error.urlRequired'));
      return null;
    }
    if (!check.ok) {
      setShowErrors(true);
      notice.error(t(failure, { message: describeFirstProblem(check.errors, form, t) ?? '' }));
      return null;
    }
    return check.plan;
  };

  /** Save vs Update (docs/reference/01-authoring.md §4): update the saved plan when there is one, else create it and keep its id. */
  const persist = async (): Promise<{ id: string; created: boolean }> => {
    const body: PlanBody = { ...check.snapshot.body, ...(scriptToSave ? { script: scriptToSave } : {}) };
    if (savedId) {
      // docs/reference/01-authoring.md §7 "Plan versions": a plan changed elsewhere since asks what to do.
      const answer = await updateOrResolve({
        version: savedVersion,
        update: (version) => updatePlan(savedId, body, version),
        choose: chooseOnConflict,
        fetchLatest: () => fetchPlan(savedId),
        reload: (latest) => {
          const parsed = safeMigratePlan(latest);
          if (!parsed.success) throw new Error(t('plans.loadFailed'));
          applySavedPlan(parsed.data, savedId, scriptStateOf(latest));
          notice.success(t('conflict.reloaded'));
        },
      });
      const id = savedIdOf(answer) ?? savedId;
      setSavedFingerprint(currentFingerprint);
      setSavedVersion(answer.plan?.version);
      return { id, created: false };
    }
    const answer = await createPlan(body);
    const id = savedIdOf(answer);
    if (!id) throw new Error('The server did not return the id of the saved plan');
    setSavedId(id);
    setSavedVersion(answer.plan?.version);
    setSavedFingerprint(currentFingerprint);
    rememberPlanId(id);
    return { id, created: true };
  };

  const save = async () => {
    if (busy) return;
    if (!readyPlan('plans.saveFailed')) return;
    setBusy('saving');
    try {
      const { created } = await persist();
      setServerErrors(null);
      notice.success(t(created ? 'plans.saved' : 'plans.updated'));
    } catch (error) {
      if (error instanceof SaveAbandoned) return;
      notice.error(t('plans.saveFailed', { message: failureText(error, check.snapshot) }));
    } finally {
      setBusy(null);
    }
  };

  // --- Running (enabled once the result screen exists) ------------------------------------------------

  const runAvailable = isScreenAvailable('testResult');

  /**
   * The server refused the plan for its tool's installed version (TOOL_CANNOT_RUN_PLAN): kept with the plan
   * it was said of, so the screen offers the built-in engine or Locust (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions").
   */
  const noteToolRefusal = (error: unknown) => {
    if (!(error instanceof ApiError) || error.code !== 'TOOL_CANNOT_RUN_PLAN') return;
    // Each message starts with what the title already says ("Apache JMeter 2.13 on this server cannot run this plan: ").
    const reasons = error.fieldErrors.map(
      (f) => `${f.field}: ${f.message.replace(/^.*? on this server cannot run this plan: /, '')}`,
    );
    setToolRefusal({
      form,
      limits: { toolName: toolLabel(form.tool), reasons: reasons.length > 0 ? reasons : [error.detail] },
    });
  };

  /**
   * docs/reference/01-authoring.md §4: a run needs a plan id; an unsaved (or changed) plan is saved first.
   * `elsewhere`: this run only, in the built-in engine or in Locust, whatever the plan's tool.
   */
  const startRun = async (elsewhere?: RunChoice) => {
    const plan = readyPlan('plans.runFailed');
    if (!plan) return;
    let id = savedId;
    if (!id || dirty) id = (await persist()).id;
    const request: RunTestRequest = {
      ...runTestRequest(plan, id, runAgents),
      ...(elsewhere === 'builtin' ? { engine: 'builtin' as const } : {}),
      ...(elsewhere === 'locust' ? { tool: 'locust' as const } : {}),
    };
    const testId = testIdOf(await runTest(request));
    if (!testId) throw new Error('The server did not return a test id');
    setToolRefusal(null);
    handOffRun(testId, { ...request });
    allowNextNavigation();
    void navigate(screenPath('testResult', { testId }), { state: { testId, planId: id } });
  };

  const run = async () => {
    if (busy || !runAvailable) return;
    setBusy('running');
    try {
      await startRun();
    } catch (error) {
      if (error instanceof SaveAbandoned) return;
      noteToolRefusal(error);
      notice.error(t('plans.runFailed', { message: failureText(error, check.snapshot) }));
    } finally {
      setBusy(null);
    }
  };

  /** The one-click switch: runs the plan in the built-in engine or Locust; a refusal rejects (shown by the buttons). */
  const runElsewhere = async (choice: RunChoice) => {
    if (busy) return;
    setBusy('running');
    try {
      await startRun(choice);
    } catch (error) {
      if (error instanceof SaveAbandoned) return;
      throw new Error(failureText(error, check.snapshot), { cause: error });
    } finally {
      setBusy(null);
    }
  };

  // --- Generate and Validate --------------------------------------------------------------------------

  const generate = async () => {
    if (busy) return;
    notice.clearErrors();
    if (form.name.trim() === '') {
      setShowErrors(true);
      notice.error(t('plans.error.nameRequired'));
      return;
    }
    const request = checkScriptRequest(form);
    if (!request.snapshot.hasUrl) {
      notice.error(t('plans.error.noApisToGenerate'));
      return;
    }
    if (!request.ok) {
      setShowErrors(true);
      const message = describeFirstProblem(request.errors, form, t) ?? '';
      notice.error(t('plans.generateFailed', { message }));
      return;
    }
    setBusy('generating');
    try {
      await generateScriptOnServer(request.request);
      setServerErrors(null);
      // The server and the browser run the same generators; from here the panel follows the plan.
      script.setMode('live');
    } catch (error) {
      notice.error(t('plans.generateFailed', { message: failureText(error, request.snapshot) }));
    } finally {
      setBusy(null);
    }
  };

  const validate = async () => {
    if (busy) return;
    notice.clearErrors();
    const request = checkScriptRequest(form);
    if (!request.snapshot.hasUrl) {
      notice.error(t('plans.error.noApisToValidate'));
      return;
    }
    if (!request.ok) {
      setShowErrors(true);
      const message = describeFirstProblem(request.errors, form, t) ?? '';
      notice.error(t('plans.validateFailed', { message }));
      return;
    }
    setBusy('validating');
    try {
      const result = await validatePlan(request.request);
      setValidation({ result, key: validationKeyOf(request.snapshot.body) });
    } catch (error) {
      noteToolRefusal(error);
      notice.error(t('plans.validateFailed', { message: failureText(error, request.snapshot) }));
    } finally {
      setBusy(null);
    }
  };

  /** An edited script belongs to its tool: another tool means a script generated afresh from the plan. */
  const changeTool = (tool: Tool) => {
    if (tool === form.tool) return;
    if (script.mode !== 'edited') {
      dispatch({ type: 'setTool', tool });
      return;
    }
    const question = {
      message: t('plans.confirmToolChange', { tool: toolLabel(form.tool) }),
      confirmLabel: t('plans.confirmToolChangeAction'),
    };
    void confirm(question).then((confirmed) => {
      if (!confirmed) return;
      script.setMode('live');
      dispatch({ type: 'setTool', tool });
    });
  };

  // --- Imported APIs (script-upload screen) -----------------------------------------------------------

  /** Replaces the plan's APIs with imported ones; a plan without a name takes the document's title. */
  const importEntries = (entries: EntryForm[], suggestedName: string) => {
    if (entries.length === 0) return;
    dispatch({
      type: 'load',
      form: { ...form, name: form.name.trim() ? form.name : suggestedName.trim().slice(0, 200), entries },
    });
    setShowErrors(false);
    setServerErrors(null);
    setValidation(null);
  };

  // --- Text command (when its parser exists) ----------------------------------------------------------

  const textCommandSource = use(PlanTextCommandContext);
  const applyTextCommand = textCommandSource
    ? async (command: string): Promise<TextCommandResponse> => {
        if (!savedId) throw new Error('The plan is not saved');
        const answer = await textCommandSource({ plan_id: savedId, command });
        if (answer.updated_plan) {
          const parsed = safeMigratePlan(answer.updated_plan);
          if (parsed.success) {
            applySavedPlan(
              parsed.data,
              savedId,
              script.mode === 'none' ? { mode: 'none', text: '' } : { mode: 'live', text: '' },
            );
          }
        }
        return answer;
      }
    : undefined;

  return {
    /** The screen was opened with a saved plan (by id or hand-off), not blank. */
    openedWithPlan: initial.target.kind !== 'none',
    form,
    dispatch,
    errors,
    savedId,
    savedVersion,
    dirty,
    unsaved,
    busy,
    loading: busy === 'loading',
    loadFailed,
    foreignSource,
    script,
    validation: validation?.result ?? null,
    closeValidation: () => setValidation(null),
    runAvailable,
    runAgents,
    setRunAgents,
    save,
    run,
    runElsewhere,
    /** Said before Run: the tool as installed cannot run this plan (from GET /api/engines), or the server said so. */
    toolLimits: toolLimits ?? (toolRefusal?.form === form ? toolRefusal.limits : null),
    generate,
    validate,
    changeTool,
    importEntries,
    applyTextCommand,
  };
}

export type PlanEditor = ReturnType<typeof usePlanEditor>;
