import { contract, type CallInput } from '@aqa/contract';
import type { RunStarted } from '@aqa/plan';
import { call } from './api';

/** POST /api/run-test's body, as the contract types it (docs/reference/01-authoring.md §3 "Run-test request"). */
export type RunTestBody = NonNullable<CallInput<typeof contract.runs.start>['body']>;

/**
 * What the screens send: the body, where the plan id may still be missing (a run of a plan never
 * saved); the server answers that with its "plan_id is required" sentence (docs/reference/02-running.md §5).
 */
export type RunTestInput = Omit<RunTestBody, 'plan_id'> & { plan_id: string | undefined };

/** Starts a performance run: the one run-test call of the web app, for the editor and the result screen. */
export function runTest(input: RunTestInput): Promise<RunStarted> {
  // A missing id goes out as '', not as a cast of the contract's type: the server refuses a blank
  // plan_id with the same "plan_id is required" sentence as an absent one (RunTestBodySchema).
  const { plan_id: planId, ...rest } = input;
  return call(contract.runs.start, { body: { ...rest, plan_id: planId ?? '' } });
}

/**
 * What a run's start or stop changes in the query cache (docs/adr/0026-server-state-through-tanstack-query.md):
 * the run lists of both kinds and the unread messages.
 */
export const RUN_LIST_ROUTES = [contract.runs.list, contract.functional.results, contract.messages.list];
