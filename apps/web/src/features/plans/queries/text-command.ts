import { contract, type CallInput } from '@aqa/contract';
import { createContext } from 'react';
import { call } from '@/lib/api';

/**
 * The text-command contract (docs/reference/01-authoring.md §3 "Text-command response", §7
 * POST /update-test-plan-command). `requestTextCommand` is handed to the plan screens through
 * `PlanTextCommandContext` by the router (src/app/data-sources.tsx).
 */

/** How the server scopes an update: the plan, every API, or one API by its 0-based index. */
export type UpdateScope = 'plan' | 'all' | { api: number };

/*
 * The view the plan screens read of the answer; the contract's answer (TextCommandResponseSchema) is
 * assigned to it in requestTextCommand, so a change there that this view does not follow fails to compile.
 */
export interface ParsedUpdate {
  field: string;
  value: unknown;
  scope: UpdateScope;
}

export interface TextCommandResponse {
  message: string;
  parsed_updates: ParsedUpdate[];
  /** The plan after the command, as saved; absent when nothing changed. */
  updated_plan?: unknown;
}

export type TextCommandRequest = Pick<
  NonNullable<CallInput<typeof contract.textCommands.apply>['body']>,
  'plan_id' | 'command'
>;

export type PlanTextCommandSource = (
  request: TextCommandRequest,
  signal?: AbortSignal,
) => Promise<TextCommandResponse>;

/** The registered text-command parser; none (no text-command panel) outside the app. */
export const PlanTextCommandContext = createContext<PlanTextCommandSource | undefined>(undefined);

/** POST /api/update-test-plan-command: parses the command on the server, applies it and saves the plan. */
export const requestTextCommand: PlanTextCommandSource = (request, signal) =>
  call(contract.textCommands.apply, { body: request }, signal ? { signal } : {});
