import { contract } from '@aqa/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useConfirm, type ConfirmRequest } from '@/components/confirm-dialog';
import { useLeaveWarning } from '@/components/leave-warning';
import { useScreenNotices } from '@/components/notices';
import { SaveAbandoned, updateOrResolve, usePlanConflictChoice } from '@/components/plan-conflict';
import { useT } from '@/i18n';
import { isAbortError } from '@/lib/api';
import { invalidateRoutes, type RouteKey } from '@/lib/queries';
import { RUN_LIST_ROUTES } from '@/lib/run-test';
import { screenPath, type ScreenId } from '@/lib/screens';
import { callErrorMessage } from '../call-messages';
import { handOffRun } from '../model/hand-off';

/**
 * The life of a plan on an editor screen, the same for the performance editor and the functional ones
 * (docs/reference/01-authoring.md §4 "Unsaved changes", §7 "Plan versions"; docs/reference/02-running.md
 * §2 "Functional screens", §3, §4): open a saved plan by its id, know
 * whether the form differs from what was saved (and guard leaving the page while it does), Save (create)
 * or Update with the version the form was made from — a plan changed elsewhere since asks what to do —,
 * Delete after the in-app confirmation, save an unsaved or changed plan before a run, and hand the run
 * over to its result screen. Each screen brings its form, its store (its query functions), how a stored
 * plan is read and put into the form, and its own words.
 */

/**
 * What a plan's save or delete changes in the query cache (docs/adr/0026-server-state-through-tanstack-query.md):
 * the plan lists, the dashboards and the saved plan itself.
 */
const PLAN_ROUTES = [
  contract.plans.list,
  contract.plans.get,
  contract.functional.list,
  contract.functional.getConfig,
  contract.history.dashboard,
];

/** A saved plan's place in the store, as the lifecycle needs it of the server's answers. */
export interface SavedRef {
  id: string | undefined;
  version: number | undefined;
}

/** The query functions of one kind of plan. */
export interface PlanStore<Sent, Stored extends { version?: number | undefined }> {
  /** The cache key of `fetch`'s call: the routeKey of the route it asks (src/lib/queries.ts). */
  key: (id: string) => RouteKey;
  fetch: (id: string, signal?: AbortSignal) => Promise<Stored>;
  create: (body: Sent) => Promise<SavedRef>;
  /** `id` of the answer: the plan's id when the server names it (else the id updated). */
  update: (id: string, body: Sent, version: number | undefined) => Promise<SavedRef>;
  remove?: (id: string) => Promise<unknown>;
}

/** A stored plan read by the model: the plan, the id and version it carries, or why it cannot be read. */
export type ReadPlan<Plan> =
  { plan: Plan; id: string | undefined; version: number | undefined } | { problem: string };

/** What the screen opens with, worked out before its first render (address, browser-storage hand-off). */
export interface PlanOpening {
  /** A saved plan to load by its id. */
  loadId: string | null;
  /** A plan already in the form (handed over whole), saved under this id. */
  saved: { id: string; version: number | undefined; fingerprint: string } | null;
  /** A new plan's fingerprint as it opened: nothing to lose until the form differs from it. */
  blankFingerprint: string | null;
  /** Why a handed-over plan could not be read. */
  loadError: string | null;
}

export interface PlanLifecycleOptions<Sent, Stored extends { version?: number | undefined }, Plan> {
  store: PlanStore<Sent, Stored>;
  read: (stored: Stored) => ReadPlan<Plan>;
  /** Puts a saved plan into the form; returns the fingerprint of what Save would then send. */
  apply: (plan: Plan) => string;
  /** What Save would send now, as text: the plan is dirty while it differs from the saved one's. */
  fingerprint: string;
  /** Worked out once, on the first render (like a useState initializer): the screen's visit opens once. */
  opening: () => PlanOpening;
  /** The ?planId= of the address. */
  planIdParam: string | null;
  /** Writes a saved plan's id into the address (?planId=) without a new editor. */
  rememberPlanId: (id: string) => void;
  /** The notice of a plan that could not be loaded, with the reason. */
  loadFailedText: (message: string) => string;
  /** A loaded plan about to open: false when it opens on another screen instead (it is not applied here). */
  opens?: (plan: Plan, id: string) => boolean;
}

/** The lifecycle's own busy states; a screen adds those of its actions (saving, starting, …). */
export type LifecycleBusy = 'loading' | 'deleting';

export function usePlanLifecycle<
  Sent,
  Stored extends { version?: number | undefined },
  Plan,
  Busy extends string = never,
>(options: PlanLifecycleOptions<Sent, Stored, Plan>) {
  const { store, read, apply, fingerprint, planIdParam, rememberPlanId } = options;
  const t = useT();
  const notice = useScreenNotices();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const chooseOnConflict = usePlanConflictChoice();
  const [opening] = useState(options.opening);
  const { loadId, blankFingerprint } = opening;
  const [savedId, setSavedId] = useState<string | null>(opening.saved?.id ?? null);
  /** The saved plan's version the form was made from (docs/reference/01-authoring.md §7 "Plan versions"). */
  const [savedVersion, setSavedVersion] = useState<number | undefined>(opening.saved?.version);
  /** What was last saved or loaded, as the fingerprint of what Save sent. */
  const [savedFingerprint, setSavedFingerprint] = useState<string | null>(opening.saved?.fingerprint ?? null);
  const [busy, setBusy] = useState<Busy | LifecycleBusy | null>(loadId ? 'loading' : null);
  const [loadError, setLoadError] = useState<string | null>(opening.loadError);

  const dirty = savedFingerprint !== fingerprint;
  // What the leave-page warning guards (docs/reference/01-authoring.md §4 "Unsaved changes"): edits of a
  // saved plan, or a new plan that is no longer blank — also changes James applied to it.
  const unsaved =
    busy !== 'loading' && loadError === null && fingerprint !== (savedFingerprint ?? blankFingerprint);
  const { allowNextNavigation } = useLeaveWarning(unsaved);

  /** A saved plan (loaded, reloaded after a conflict, or changed by a text command) becomes the form. */
  const applySaved = (plan: Plan, id: string, version: number | undefined) => {
    setSavedFingerprint(apply(plan));
    setSavedId(id);
    setSavedVersion(version);
  };

  // --- Loading a saved plan --------------------------------------------------------------------------

  // The saved plan is read through the query cache, under the key of its route (docs/contract.md §3
  // "Server state"), asked afresh on each visit (what an earlier visit cached is not what the form
  // opens with), and put into the form once: after that the form is the screen's draft. No query
  // observes the entry while the editor is open, so a save's invalidation of it asks the server nothing
  // more; the next visit asks again and opens the plan as last saved.
  const fetchSaved = (id: string) =>
    queryClient.fetchQuery({ queryKey: store.key(id), queryFn: ({ signal }) => store.fetch(id, signal) });

  useEffect(() => {
    if (!loadId) return;
    const failed = (message: string) => {
      setBusy(null);
      setLoadError(message);
      notice.error(options.loadFailedText(message));
    };
    let left = false;
    fetchSaved(loadId).then(
      (stored) => {
        if (left) return;
        const result = read(stored);
        if ('problem' in result) {
          failed(result.problem);
          return;
        }
        const id = result.id ?? loadId;
        if (options.opens && !options.opens(result.plan, id)) return;
        applySaved(result.plan, id, result.version);
        setBusy(null);
        if (planIdParam !== id) rememberPlanId(id);
      },
      (error: unknown) => {
        if (left || isAbortError(error)) return;
        failed(callErrorMessage(error, t));
      },
    );
    return () => {
      left = true;
      void queryClient.cancelQueries({ queryKey: store.key(loadId), exact: true });
    };
    // The plan is loaded once per screen visit (the screen is remounted for every new visit); later
    // renders must not load it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadId]);

  // --- Save, Update ----------------------------------------------------------------------------------

  /**
   * Update writes over the saved plan with the version the form was made from; Create writes a new one
   * (and the screen then edits that). Resolves to the saved plan's id.
   */
  const persist = async (sent: Sent, mode: 'create' | 'update'): Promise<string> => {
    const id = await write(sent, mode);
    void invalidateRoutes(queryClient, ...PLAN_ROUTES);
    return id;
  };

  const write = async (sent: Sent, mode: 'create' | 'update'): Promise<string> => {
    if (mode === 'update' && savedId) {
      // docs/reference/01-authoring.md §7 "Plan versions": a plan changed elsewhere since asks what to do.
      const answer = await updateOrResolve({
        version: savedVersion,
        update: (version) => store.update(savedId, sent, version),
        choose: chooseOnConflict,
        fetchLatest: () => fetchSaved(savedId),
        reload: (latest) => {
          const result = read(latest);
          if ('problem' in result) throw new Error(result.problem);
          applySaved(result.plan, savedId, result.version);
          notice.success(t('conflict.reloaded'));
        },
      });
      setSavedFingerprint(fingerprint);
      setSavedVersion(answer.version);
      return answer.id ?? savedId;
    }
    const answer = await store.create(sent);
    const id = answer.id;
    if (!id) throw new Error('The server did not return the id of the saved plan');
    setSavedId(id);
    setSavedVersion(answer.version);
    setSavedFingerprint(fingerprint);
    rememberPlanId(id);
    return id;
  };

  /** Update for a saved plan, else create it. */
  const saveOrUpdate = (sent: Sent) => persist(sent, savedId ? 'update' : 'create');

  /** docs/reference/01-authoring.md §4, docs/reference/02-running.md §4: a run needs a saved, unchanged plan. */
  const ensureSaved = async (sent: Sent): Promise<string> =>
    savedId && !dirty ? savedId : saveOrUpdate(sent);

  /**
   * One action of the screen at a time, under its busy state. A save the user abandoned after a conflict
   * (Reload theirs, Keep editing) is not a failure, so `failed` is not told of it.
   */
  const act = async (state: Busy, task: () => Promise<void>, failed: (error: unknown) => void) => {
    setBusy(state);
    try {
      await task();
    } catch (error) {
      if (!(error instanceof SaveAbandoned)) failed(error);
    } finally {
      setBusy(null);
    }
  };

  // --- Delete ----------------------------------------------------------------------------------------

  /** Delete after the in-app confirmation; `gone` takes the screen on once the plan is deleted. */
  const remove = async (words: {
    question: ConfirmRequest;
    deleted: string;
    failed: (message: string) => string;
    gone: () => void;
  }) => {
    const id = savedId;
    if (busy || !id || !store.remove) return;
    if (!(await confirm(words.question))) return;
    notice.clearErrors();
    setBusy('deleting');
    try {
      await store.remove(id);
      void invalidateRoutes(queryClient, ...PLAN_ROUTES);
      notice.success(words.deleted);
      setBusy(null);
      // The plan is gone: there is nothing left to lose.
      allowNextNavigation();
      words.gone();
    } catch (error) {
      notice.error(words.failed(callErrorMessage(error, t)));
      setBusy(null);
    }
  };

  /** After Delete, when the screen stays: the form is a new plan again. */
  const forgetSaved = () => {
    setSavedId(null);
    setSavedFingerprint(null);
  };

  // --- The run ---------------------------------------------------------------------------------------

  /**
   * A started run's result screen, with the run in browser storage (docs/reference/01-authoring.md §4;
   * docs/reference/02-running.md §3: currentTestId, currentTestConfig); the plan is saved, so nothing is lost.
   */
  const openRun = (screen: ScreenId, testId: string, request: object, planId: string) => {
    handOffRun(testId, { ...request });
    void invalidateRoutes(queryClient, ...RUN_LIST_ROUTES);
    allowNextNavigation();
    void navigate(screenPath(screen, { testId }), { state: { testId, planId } });
  };

  return {
    savedId,
    savedVersion,
    savedFingerprint,
    dirty,
    unsaved,
    busy,
    loading: busy === 'loading',
    loadError,
    allowNextNavigation,
    applySaved,
    persist,
    saveOrUpdate,
    ensureSaved,
    act,
    remove,
    forgetSaved,
    openRun,
  };
}
