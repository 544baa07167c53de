import type { FunctionalPlan, PerfPlan } from '@aqa/plan';
import {
  createContext,
  use,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';

/**
 * The plan on screen, for James's "Adjust current test plan" (docs/design.md §10). A plan editor publishes
 * how to read its plan, how to put a changed plan into its own state (so Save stays the user's) and how to
 * go back to exactly what it held; the panel reads them only when the user asks. This file imports no
 * other feature, so the editors can use it without an import cycle.
 */

/** Why the editor's state is not a whole plan yet, in the editor's own words (its first problem). */
export interface PlanProblem {
  problem: string;
}

interface SourceOf<Kind extends string, Plan> {
  kind: Kind;
  /** The plan as the model reads it now. */
  read: () => Plan | PlanProblem;
  /** Puts a changed plan into the editor's form. */
  apply: (plan: Plan) => void;
  /** Remembers the editor's state now; the function it returns restores that state exactly (Undo). */
  checkpoint: () => () => void;
}

export type CurrentPlanSource = SourceOf<'performance', PerfPlan> | SourceOf<'functional', FunctionalPlan>;

interface Registry {
  source: RefObject<CurrentPlanSource> | null;
  register: (source: RefObject<CurrentPlanSource>) => () => void;
}

const CurrentPlanContext = createContext<Registry | null>(null);

/** Holds the one plan screen that is open; the shell puts it around the screens and the panel. */
export function CurrentPlanProvider({ children }: { children: ReactNode }) {
  const [source, setSource] = useState<RefObject<CurrentPlanSource> | null>(null);
  const register = useCallback((next: RefObject<CurrentPlanSource>) => {
    setSource(next);
    return () => setSource((current) => (current === next ? null : current));
  }, []);
  const value = useMemo(() => ({ source, register }), [source, register]);
  return <CurrentPlanContext value={value}>{children}</CurrentPlanContext>;
}

/**
 * Called by a plan editor on every render with its latest plan functions; registered while the editor
 * is mounted. Outside a provider (a screen rendered alone in a test) it does nothing.
 */
export function usePublishCurrentPlan(source: CurrentPlanSource): void {
  const registry = use(CurrentPlanContext);
  const ref = useRef(source);
  useLayoutEffect(() => {
    ref.current = source;
  });
  const register = registry?.register;
  useEffect(() => register?.(ref), [register]);
}

/**
 * The open plan screen's source, or null when no plan screen is open. The ref's identity names the
 * screen visit: an Undo is offered only while the same visit is open.
 */
export function useCurrentPlan(): RefObject<CurrentPlanSource> | null {
  return use(CurrentPlanContext)?.source ?? null;
}

export function isPlanProblem(value: unknown): value is PlanProblem {
  return typeof value === 'object' && value !== null && 'problem' in value;
}
