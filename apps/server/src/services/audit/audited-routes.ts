import type { AuditAction, AuditObject } from '@aqa/plan';

/** Where an audited call names the thing it acted on. */
type IdSource =
  | { from: 'params'; field: string }
  | { from: 'body'; field: string }
  | { from: 'answer'; field: string }
  | { from: 'actor' }
  | { from: 'none' };

export interface AuditedRoute {
  action: AuditAction;
  object: AuditObject;
  id: IdSource;
  /** The body field that names the thing, when the call carries one. */
  name?: string;
  /**
   * Whose log the entry goes to when it is not the workspace the call acted in: joining a team by an
   * invite link happens from the joiner's own workspace, but is the team's to see (its owners read it).
   */
  workspace?: IdSource;
}

const path = (field = 'id'): IdSource => ({ from: 'params', field });
const answer = (field: string): IdSource => ({ from: 'answer', field });
const body = (field: string): IdSource => ({ from: 'body', field });

/**
 * Every call that creates, changes, runs, stops or deletes something, by its route ("METHOD /pattern"),
 * and what it is recorded as (docs/adr/0034-audit-log.md). A call that changes something and is in
 * neither this table nor NOT_AUDITED fails apps/server/test/audit.test.ts, so a new route is not left out.
 */
export const AUDITED_ROUTES: Readonly<Record<string, AuditedRoute>> = {
  'PUT /api/me': { action: 'changed', object: 'account', id: { from: 'actor' } },
  'POST /api/me/password': { action: 'changed', object: 'account', id: { from: 'actor' } },
  'POST /api/agents/register': {
    action: 'created',
    object: 'load_agent',
    id: answer('agent_id'),
    name: 'name',
  },
  'DELETE /api/agents/:id': { action: 'deleted', object: 'load_agent', id: path() },
  'DELETE /api/assistant/conversation': {
    action: 'deleted',
    object: 'assistant_conversation',
    id: { from: 'none' },
  },
  'POST /api/save-test-plan': { action: 'created', object: 'load_plan', id: answer('id'), name: 'name' },
  'PUT /api/update-test-plan/:id': { action: 'changed', object: 'load_plan', id: path(), name: 'name' },
  'POST /api/update-test-plan-command': { action: 'changed', object: 'load_plan', id: body('plan_id') },
  'POST /api/set-baseline': { action: 'changed', object: 'load_plan', id: body('plan_id') },
  'DELETE /api/delete-test-plan/:id': { action: 'deleted', object: 'load_plan', id: path() },
  'POST /api/run-test': { action: 'ran', object: 'load_run', id: answer('test_id'), name: 'planName' },
  'POST /api/stop-test/:id': { action: 'stopped', object: 'load_run', id: path() },
  'POST /api/force-stop-all-tests': { action: 'stopped', object: 'load_run', id: { from: 'none' } },
  'POST /api/save-test-result': {
    action: 'changed',
    object: 'load_run',
    id: body('test_id'),
    name: 'test_name',
  },
  'DELETE /api/delete-test-result/:id': { action: 'deleted', object: 'load_run', id: path() },
  'POST /api/functional/save-config': {
    action: 'created',
    object: 'functional_plan',
    id: answer('id'),
    name: 'test_name',
  },
  'PUT /api/functional/update-config/:id': {
    action: 'changed',
    object: 'functional_plan',
    id: path(),
    name: 'test_name',
  },
  'DELETE /api/functional/delete-config/:id': { action: 'deleted', object: 'functional_plan', id: path() },
  'POST /api/functional/run-test': {
    action: 'ran',
    object: 'functional_run',
    id: answer('test_id'),
    name: 'test_name',
  },
  'POST /api/functional/stop-test/:id': { action: 'stopped', object: 'functional_run', id: path() },
  'DELETE /api/functional/delete-result/:id': { action: 'deleted', object: 'functional_run', id: path() },
  'POST /api/schedules': { action: 'created', object: 'schedule', id: answer('id') },
  'PUT /api/schedules/:id': { action: 'changed', object: 'schedule', id: path() },
  'DELETE /api/schedules/:id': { action: 'deleted', object: 'schedule', id: path() },
  'POST /api/tokens': { action: 'created', object: 'api_token', id: answer('id'), name: 'name' },
  'DELETE /api/tokens/:id': { action: 'deleted', object: 'api_token', id: path() },
  'POST /api/notification-channels': {
    action: 'created',
    object: 'notification_channel',
    id: answer('id'),
    name: 'name',
  },
  'DELETE /api/notification-channels/:id': { action: 'deleted', object: 'notification_channel', id: path() },
  'PUT /api/plans/:id/notifications': { action: 'changed', object: 'load_plan', id: path() },
  'PUT /api/functional/plans/:id/notifications': { action: 'changed', object: 'functional_plan', id: path() },
  // Workspaces and members (docs/adr/0035-workspaces-and-roles.md): in the log of the workspace changed.
  'POST /api/workspaces': { action: 'created', object: 'workspace', id: answer('id'), name: 'name' },
  'PUT /api/workspaces/:id': { action: 'changed', object: 'workspace', id: path(), name: 'name' },
  'DELETE /api/workspaces/:id': { action: 'deleted', object: 'workspace', id: path() },
  'POST /api/workspaces/:id/members': {
    action: 'created',
    object: 'workspace_member',
    id: path(),
    name: 'email',
  },
  'PUT /api/workspaces/:id/members/:userId': {
    action: 'changed',
    object: 'workspace_member',
    id: path('userId'),
  },
  'POST /api/workspaces/:id/invites': { action: 'created', object: 'workspace_invite', id: answer('id') },
  'DELETE /api/workspaces/:id/invites/:inviteId': {
    action: 'deleted',
    object: 'workspace_invite',
    id: path('inviteId'),
  },
  'POST /api/invites/:token/accept': {
    action: 'created',
    object: 'workspace_member',
    id: { from: 'actor' },
    workspace: answer('id'),
  },
  'DELETE /api/workspaces/:id/members/:userId': {
    action: 'deleted',
    object: 'workspace_member',
    id: path('userId'),
  },
};

/** Calls that change nothing a team would audit, each with the reason. */
export const NOT_AUDITED: Readonly<Record<string, string>> = {
  'POST /api/register': 'creates the account before anyone is signed in',
  'POST /api/login': 'a sign-in, not a change',
  'POST /api/logout': "ends the caller's own session",
  'PUT /api/agents/:id/heartbeat': 'a load agent saying it is alive, every few seconds',
  'POST /api/agents/:id/jobs/next': 'a load agent asking for work',
  'POST /api/agents/:id/runs/:runId/events': "a load agent's measurements of a run already recorded as ran",
  'POST /api/assistant/ask': 'a question to James; it changes no plan',
  'POST /api/feedback': 'feedback to the product team',
  'POST /api/functional/parse-script': 'reads a script; stores nothing',
  'POST /api/parse-swagger': 'reads a file; stores nothing',
  'POST /api/parse-postman': 'reads a file; stores nothing',
  'POST /api/parse-har': 'reads a file; stores nothing',
  'POST /api/parse-taurus': 'reads a file; stores nothing',
  'POST /api/parse-curl': 'reads a command; stores nothing',
  'POST /api/functional/parse-file': 'reads a file; stores nothing',
  'POST /api/messages/read': "marks the caller's own messages read",
  'POST /api/generate-script': 'writes a script; stores nothing',
  'POST /api/validate-script': 'checks a script; stores nothing',
  'POST /api/notification-channels/:id/test': 'sends a test notification; its delivery log says so',
};
