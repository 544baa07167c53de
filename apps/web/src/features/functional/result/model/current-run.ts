import { FUNCTIONAL_TEST_ID_PREFIX } from '@aqa/plan';
import { storage } from '@/lib/storage';
import { CURRENT_TEST_ID_KEY } from '@/features/call-editor';

/**
 * The run on screen in browser storage (docs/reference/02-running.md §3 `currentTestId`, §7: stop and back
 * navigation remove it), and the refusal of §5 "Test ID mismatch. Please run the test again.".
 */

/** What a screen hands the result screen when it opens a run on purpose (Run Test, View Result). */
export interface FunctionalResultState {
  testId: string;
  planId?: string | undefined;
}

/** Remembers the functional run a screen is about to open (Run Test, Start API Functional Test). */
export function rememberFunctionalRun(testId: string): void {
  storage.set(CURRENT_TEST_ID_KEY, testId);
}

export function forgetFunctionalRun(): void {
  storage.remove(CURRENT_TEST_ID_KEY);
}

/**
 * docs/reference/02-running.md §5: the screen refuses a link whose test id differs from the stored one.
 * Only a stored functional run (an fc_ id) counts, so the performance run stored by its own screen never
 * blocks this one; and a run opened on purpose from another screen (router state naming this very test,
 * as View Result and Run Test give) is not refused but becomes the stored run.
 */
export function isTestIdMismatch(routeTestId: string, opened: FunctionalResultState | null): boolean {
  if (opened?.testId === routeTestId) return false;
  const stored = storage.get(CURRENT_TEST_ID_KEY);
  return stored !== null && stored.startsWith(FUNCTIONAL_TEST_ID_PREFIX) && stored !== routeTestId;
}

/** Router state, if a screen gave one: only its string fields are read. */
export function readResultState(state: unknown): FunctionalResultState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { testId, planId } = state as Record<string, unknown>;
  if (typeof testId !== 'string') return null;
  return { testId, planId: typeof planId === 'string' ? planId : undefined };
}
