import { api } from '@/lib/api';

/**
 * The text-command contract (spec 01 §3 "Text-command response", §7 POST /update-test-plan-command).
 * `requestTextCommand` is registered in `DATA_SOURCES.planTextCommand` (src/app/routes-registry.ts).
 */

export interface ParsedUpdate {
  field: string;
  value: unknown;
  /** Which APIs it applied to, e.g. "all" or an API's number; absent for plan-level fields. */
  scope?: string | null;
}

export interface TextCommandResponse {
  message: string;
  parsed_updates: ParsedUpdate[];
  /** The plan after the command, as saved; absent when nothing changed. */
  updated_plan?: unknown;
}

export interface TextCommandRequest {
  plan_id: string;
  command: string;
}

export type PlanTextCommandSource = (
  request: TextCommandRequest,
  signal?: AbortSignal,
) => Promise<TextCommandResponse>;

/** How the server scopes an update: the plan, every API, or one API by its 0-based index. */
type ServerScope = 'plan' | 'all' | { api: number };

interface ServerTextCommandResponse extends Omit<TextCommandResponse, 'parsed_updates'> {
  parsed_updates: { field: string; value: unknown; scope: ServerScope }[];
}

/** "all APIs", "API 2" (numbered from 1, as the user typed it), or nothing for plan-level fields. */
function scopeText(scope: ServerScope): string | null {
  if (scope === 'plan') return null;
  if (scope === 'all') return 'all APIs';
  return `API ${scope.api + 1}`;
}

/** POST /api/update-test-plan-command: parses the command on the server, applies it and saves the plan. */
export const requestTextCommand: PlanTextCommandSource = async (request, signal) => {
  const answer = await api.post<ServerTextCommandResponse>('/update-test-plan-command', request, {
    ...(signal ? { signal } : {}),
  });
  return {
    ...answer,
    parsed_updates: answer.parsed_updates.map((update) => ({ ...update, scope: scopeText(update.scope) })),
  };
};
