import { safeMigratePlan, type PerfPlan, type Tool, type ValidationResponse } from '@aqa/plan';
import { use, useEffect, useMemo, useReducer, useState } from 'react';
import { useNavigate } from 'react-router';
import { isScreenAvailable, screenPath, type ScreenId } from '@/lib/screens';
import { useConfirm } from '@/components/confirm-dialog';
import { useScreenNotices } from '@/components/notices';
import { useT } from '@/i18n';
import { ApiError } from '@/lib/api';
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
  createPlanForm,
  formFromPlan,
  planFormReducer,
  toolLabel,
  withImportedSettings,
  type ImportedPlanSettings,
  type PlanForm,
} from '../model/plan-form';
import { describeFirstProblem } from '../plan-messages';
import {
  createPlan,
  fetchPlan,
  planKey,
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
import {
  callErrorMessage,
  clearPlanHandOff,
  handOffPlan,
  handOffPlanId,
  peekPlanHandOff,
  planIdOf,
  usePlanLifecycle,
  type EntryForm,
  type PlanStore,
  type ReadPlan,
} from '@/features/call-editor';

/**
 * Everything a performance authoring screen (URL input, script upload) does with its plan: the form, the
 * script, loading a saved plan (by `?planId=` or the storage hand-off of docs/reference/01-authoring.md §4), Save vs Update,
 * Generate, Validate and Run. Loading, Save vs Update, the version conflict, save-before-run and the
 * hand-off to the result screen are the lifecycle every plan editor shares (usePlanLifecycle of
 * @/features/call-editor). Messages the spec writes as alerts are in-app notices (`useNotice`), word for
 * word and in the active language; the tool change asks with the in-app confirmation (`useConfirm`).
 */

type SourcePage = PerfPlan['source_page'];

/** The screen each source page's plans open on (docs/reference/01-authoring.md §2 "Redirect"). */
const SCREEN_OF_SOURCE: Record<SourcePage, ScreenId> = {
  'url-input': 'createTestUrl',
  'script-input': 'createTestScript',
};

type LoadTarget = { kind: 'id'; id: string } | { kind: 'plan'; plan: unknown } | { kind: 'none' };

type ScriptState = { mode: ScriptMode; text: string };

/** A saved plan as the editor opens it: the plan, and its script as saved. */
interface OpenedPlan {
  plan: PerfPlan;
  script: ScriptState;
}

/** Where performance plans are stored (docs/reference/01-authoring.md §4). */
const PERF_STORE: PlanStore<PlanBody, SavedPlan> = {
  key: planKey,
  fetch: fetchPlan,
  create: async (body) => {
    const answer = await createPlan(body);
    return { id: savedIdOf(answer), version: answer.plan?.version };
  },
  update: async (id, body, version) => {
    const answer = await updatePlan(id, body, version);
    return { id: savedIdOf(answer), version: answer.plan?.version };
  },
};

interface Initial {
  target: LoadTarget;
  form: PlanForm;
  savedId: string | null;
  /** The saved plan's version the form was made from (docs/reference/01-authoring.md §7 "Plan versions"). */
  savedVersion: number | undefined;
  script: { mode: ScriptMode; text: string };
  /** The plan handed over whole, as read (parsed once, here). */
  handedOver: PerfPlan | null;
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

/** Whether a plan of `planSource` is opened on the screen of `sourcePage` even so. */
function opensHereInstead(planSource: SourcePage, sourcePage: SourcePage): boolean {
  return planSource !== sourcePage && !isScreenAvailable(SCREEN_OF_SOURCE[planSource]);
}

function initialState(planIdParam: string | null, sourcePage: SourcePage): Initial {
  const blank: Initial = {
    target: { kind: 'none' },
    form: createPlanForm(sourcePage),
    savedId: null,
    savedVersion: undefined,
    script: { mode: 'none', text: '' },
    handedOver: null,
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
      handedOver: parsed.data,
    };
  }
  return blank;
}

/** The busy states of this editor's own actions; loading (and deleting) are the lifecycle's. */
type ActionBusy = 'generating' | 'saving' | 'validating' | 'running';

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
  /** The plan belongs to the other performance screen, which is not built: it opens here. */
  const foreignSource = opensHereInstead(form.sourcePage, sourcePage);
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

  const check = useMemo(() => checkPlan(form), [form]);
  const currentFingerprint = fingerprint(
    check.snapshot.body,
    editedText({ mode: script.mode, text: script.script }),
  );

  // --- Loading a saved plan -------------------------------------------------------------------------

  /** A saved plan (loaded, reloaded after a conflict, or changed by a text command) becomes the form. */
  const applyOpened = ({ plan, script: scriptState }: OpenedPlan): string => {
    const next = formFromPlan(plan);
    dispatch({ type: 'load', form: next });
    script.setMode(scriptState.mode);
    if (scriptState.mode === 'edited') script.edit(scriptState.text);
    setShowErrors(false);
    setServerErrors(null);
    return fingerprint(snapshotForm(next).body, editedText(scriptState));
  };

  const readSaved = (stored: SavedPlan): ReadPlan<OpenedPlan> => {
    const parsed = safeMigratePlan(stored);
    if (!parsed.success) return { problem: t('plans.loadFailed') };
    return {
      plan: { plan: parsed.data, script: scriptStateOf(stored) },
      id: planIdOf(stored),
      version: parsed.data.version,
    };
  };

  const opening = () => ({
    loadId: initial.target.kind === 'id' ? initial.target.id : null,
    saved: initial.savedId
      ? {
          id: initial.savedId,
          version: initial.savedVersion,
          fingerprint: fingerprint(snapshotForm(initial.form).body, editedText(initial.script)),
        }
      : null,
    /** A new, blank plan as it opened: nothing to lose until it differs from this. */
    blankFingerprint:
      initial.target.kind === 'none' ? fingerprint(snapshotForm(initial.form).body, undefined) : null,
    loadError: initial.loadError ? t('plans.loadFailed') : null,
  });

  const lifecycle = usePlanLifecycle<PlanBody, SavedPlan, OpenedPlan, ActionBusy>({
    store: PERF_STORE,
    read: readSaved,
    apply: applyOpened,
    fingerprint: currentFingerprint,
    opening,
    planIdParam,
    rememberPlanId,
    loadFailedText: () => t('plans.loadFailed'),
    opens: ({ plan }, id) => !redirectToOwnScreen(plan, id),
  });
  const { busy, savedId, dirty, act } = lifecycle;

  /** A plan made on the other performance screen opens there, when it exists (docs/reference/01-authoring.md §2 "Redirect"). */
  function redirectToOwnScreen(plan: PerfPlan, id: string | undefined, stored?: unknown): boolean {
    const own = SCREEN_OF_SOURCE[plan.source_page];
    if (plan.source_page === sourcePage || !isScreenAvailable(own)) return false;
    if (id) handOffPlanId(id);
    else if (stored !== undefined) handOffPlan(stored);
    // The plan goes with it (the hand-off), so nothing is lost by leaving.
    lifecycle.allowNextNavigation();
    void navigate(screenPath(own), { replace: true });
    return true;
  }

  // The hand-off entries are removed once read (docs/reference/01-authoring.md §4); reading happened in the initial state.
  useEffect(() => {
    if (initial.target.kind !== 'none') clearPlanHandOff();
    if (initial.loadError) notice.error(t('plans.loadFailed'));
    if (initial.target.kind === 'plan' && initial.handedOver) {
      const id = initial.savedId ?? undefined;
      if (!redirectToOwnScreen(initial.handedOver, id, initial.target.plan) && id) rememberPlanId(id);
    }
    // Runs once per screen visit: the screen is remounted for every new visit (see UrlInputPage).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

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

  /** What Save sends: the plan, and its script unless none is kept. */
  const bodyToSave: PlanBody = {
    ...check.snapshot.body,
    ...(scriptToSave ? { script: scriptToSave } : {}),
  };

  /** Save vs Update (docs/reference/01-authoring.md §4): update the saved plan when there is one, else create it and keep its id. */
  const save = async () => {
    if (busy) return;
    if (!readyPlan('plans.saveFailed')) return;
    const created = !savedId;
    await act(
      'saving',
      async () => {
        await lifecycle.saveOrUpdate(bodyToSave);
        setServerErrors(null);
        notice.success(t(created ? 'plans.saved' : 'plans.updated'));
      },
      (error) => notice.error(t('plans.saveFailed', { message: failureText(error, check.snapshot) })),
    );
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
    const id = await lifecycle.ensureSaved(bodyToSave);
    const request: RunTestRequest = {
      ...runTestRequest(plan, id, runAgents),
      ...(elsewhere === 'builtin' ? { engine: 'builtin' as const } : {}),
      ...(elsewhere === 'locust' ? { tool: 'locust' as const } : {}),
    };
    const testId = testIdOf(await runTest(request));
    if (!testId) throw new Error('The server did not return a test id');
    setToolRefusal(null);
    lifecycle.openRun('testResult', testId, request, id);
  };

  const run = async () => {
    if (busy || !runAvailable) return;
    await act(
      'running',
      () => startRun(),
      (error) => {
        noteToolRefusal(error);
        notice.error(t('plans.runFailed', { message: failureText(error, check.snapshot) }));
      },
    );
  };

  /** The one-click switch: runs the plan in the built-in engine or Locust; a refusal rejects (shown by the buttons). */
  const runElsewhere = async (choice: RunChoice) => {
    if (busy) return;
    let failure: { error: unknown } | null = null;
    await act(
      'running',
      () => startRun(choice),
      (error) => {
        failure = { error };
      },
    );
    if (failure) {
      const { error } = failure;
      throw new Error(failureText(error, check.snapshot), { cause: error });
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
    await act(
      'generating',
      async () => {
        await generateScriptOnServer(request.request);
        setServerErrors(null);
        // The server and the browser run the same generators; from here the panel follows the plan.
        script.setMode('live');
      },
      (error) => notice.error(t('plans.generateFailed', { message: failureText(error, request.snapshot) })),
    );
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
    await act(
      'validating',
      async () => {
        const result = await validatePlan(request.request);
        setValidation({ result, key: validationKeyOf(request.snapshot.body) });
      },
      (error) => {
        noteToolRefusal(error);
        notice.error(t('plans.validateFailed', { message: failureText(error, request.snapshot) }));
      },
    );
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
  /** An import's calls (and, from a Taurus configuration, its load and data) replace the form's. */
  const importEntries = (entries: EntryForm[], suggestedName: string, settings?: ImportedPlanSettings) => {
    if (entries.length === 0) return;
    const next = {
      ...form,
      name: form.name.trim() ? form.name : suggestedName.trim().slice(0, 200),
      entries,
    };
    dispatch({ type: 'load', form: settings ? withImportedSettings(next, settings) : next });
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
            lifecycle.applySaved(
              {
                plan: parsed.data,
                script: script.mode === 'none' ? { mode: 'none', text: '' } : { mode: 'live', text: '' },
              },
              savedId,
              parsed.data.version,
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
    dirty,
    unsaved: lifecycle.unsaved,
    busy,
    loading: lifecycle.loading,
    loadFailed: lifecycle.loadError !== null,
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
