import type { WorkspaceRole } from '@aqa/plan';

/**
 * What each signed-in /api route needs (docs/adr/0035-workspaces-and-roles.md), by "METHOD /pattern":
 * - a role in the workspace the call acts in — named by the X-Workspace-Id header or the workspace_id
 *   query parameter (`from: 'request'`), or by the route's own `:id` (`from: 'path'`, the
 *   /api/workspaces/:id calls) — viewer (reads), editor (plans and runs), owner (members, settings,
 *   delete, the audit log);
 * - or `account`: the call is about the caller's own account (profile, tokens, feedback, load agents,
 *   the list of their workspaces), in no workspace.
 * The workspace hook (workspace-hook.ts) checks every call against this table before the body is read.
 * A route in neither the table nor the public list fails apps/server/test/role-matrix.test.ts, and is
 * refused at run time unless the caller owns the workspace, so a new route is never open by mistake.
 */
export type RouteRule = 'account' | { role: WorkspaceRole; from: 'request' | 'path' };

const viewer: RouteRule = { role: 'viewer', from: 'request' };
const editor: RouteRule = { role: 'editor', from: 'request' };
const owner: RouteRule = { role: 'owner', from: 'request' };

export const ROUTE_RULES: Readonly<Record<string, RouteRule>> = {
  // The caller's own account.
  'GET /api/me': 'account',
  'PUT /api/me': 'account',
  'POST /api/me/password': 'account',
  'POST /api/logout': 'account',
  'GET /api/tokens': 'account',
  'POST /api/tokens': 'account',
  'DELETE /api/tokens/:id': 'account',
  'GET /api/feedback': 'account',
  'POST /api/feedback': 'account',
  'GET /api/engines': 'account',
  'GET /api/upload-limits': 'account',
  'GET /api/agents': 'account',
  'DELETE /api/agents/:id': 'account',
  'POST /api/agents/register': 'account',
  'PUT /api/agents/:id/heartbeat': 'account',
  'POST /api/agents/:id/jobs/next': 'account',
  'POST /api/agents/:id/runs/:runId/events': 'account',
  'GET /api/workspaces': 'account',
  'POST /api/workspaces': 'account',
  // An invite link is for whoever holds it and is signed in; the service checks the link.
  'GET /api/invites/:token': 'account',
  'POST /api/invites/:token/accept': 'account',

  // The workspace named in the path.
  'GET /api/workspaces/:id/members': { role: 'viewer', from: 'path' },
  // Any member may leave; removing another member is checked for owner by the service.
  'DELETE /api/workspaces/:id/members/:userId': { role: 'viewer', from: 'path' },
  'POST /api/workspaces/:id/members': { role: 'owner', from: 'path' },
  'PUT /api/workspaces/:id/members/:userId': { role: 'owner', from: 'path' },
  'PUT /api/workspaces/:id': { role: 'owner', from: 'path' },
  'DELETE /api/workspaces/:id': { role: 'owner', from: 'path' },
  'POST /api/workspaces/:id/invites': { role: 'owner', from: 'path' },
  'GET /api/workspaces/:id/invites': { role: 'owner', from: 'path' },
  'DELETE /api/workspaces/:id/invites/:inviteId': { role: 'owner', from: 'path' },

  // Reading plans, runs, results and reports: any member.
  'GET /api/get-test-plans': viewer,
  'GET /api/get-test-plan/:id': viewer,
  'GET /api/download-script/:id': viewer,
  'GET /api/get-test-results': viewer,
  'GET /api/get-test-result/:id': viewer,
  'GET /api/test-stream/:id': viewer,
  'GET /api/test-report/:id': viewer,
  'GET /api/chart-data/:id': viewer,
  'GET /api/chart-data-summary': viewer,
  'GET /api/compare-test-results': viewer,
  'GET /api/performance-dashboard': viewer,
  'GET /api/functional/get-test-configs': viewer,
  'GET /api/functional/get-test-config/:id': viewer,
  'GET /api/functional/get-test-plan/:id': viewer,
  'GET /api/functional/functional-test-results': viewer,
  'GET /api/functional/get-test-result/:id': viewer,
  'GET /api/functional/get-test-status/:id': viewer,
  'GET /api/functional/test-report/:id': viewer,
  'GET /api/functional/screenshot/:testId/:shotId': viewer,
  'GET /api/schedules': viewer,
  'GET /api/notification-channels': viewer,
  'GET /api/notification-channels/:id/deliveries': viewer,
  'GET /api/plans/:id/notifications': viewer,
  'GET /api/functional/plans/:id/notifications': viewer,
  // Each member's own inbox and conversation with James, over the workspace's runs.
  'GET /api/messages': viewer,
  'POST /api/messages/read': viewer,
  'POST /api/assistant/ask': viewer,
  'GET /api/assistant/conversation': viewer,
  'DELETE /api/assistant/conversation': viewer,
  'GET /api/assistant/review': viewer,

  // Making and changing plans, running and stopping them: editors.
  'POST /api/save-test-plan': editor,
  'PUT /api/update-test-plan/:id': editor,
  'POST /api/update-test-plan-command': editor,
  'DELETE /api/delete-test-plan/:id': editor,
  'POST /api/set-baseline': editor,
  'POST /api/generate-script': editor,
  'POST /api/validate-script': editor,
  'POST /api/parse-curl': editor,
  'POST /api/parse-har': editor,
  'POST /api/parse-postman': editor,
  'POST /api/parse-swagger': editor,
  'POST /api/parse-taurus': editor,
  'POST /api/run-test': editor,
  'POST /api/stop-test/:id': editor,
  'POST /api/force-stop-all-tests': editor,
  'POST /api/save-test-result': editor,
  'DELETE /api/delete-test-result/:id': editor,
  'POST /api/functional/parse-file': editor,
  'POST /api/functional/parse-script': editor,
  'POST /api/functional/save-config': editor,
  'PUT /api/functional/update-config/:id': editor,
  'DELETE /api/functional/delete-config/:id': editor,
  'POST /api/functional/run-test': editor,
  'POST /api/functional/stop-test/:id': editor,
  'DELETE /api/functional/delete-result/:id': editor,
  'POST /api/schedules': editor,
  'PUT /api/schedules/:id': editor,
  'DELETE /api/schedules/:id': editor,
  'POST /api/notification-channels': editor,
  'DELETE /api/notification-channels/:id': editor,
  'POST /api/notification-channels/:id/test': editor,
  'PUT /api/plans/:id/notifications': editor,
  'PUT /api/functional/plans/:id/notifications': editor,

  // Who did what in the workspace: its owners.
  'GET /api/audit': owner,
  'GET /api/audit/export': owner,
};

/** A route missing from the table needs the owner role: closed until someone decides. */
const UNLISTED: RouteRule = owner;

/** `url` is the route pattern; HEAD is GET. */
export function ruleOf(method: string, url: string): RouteRule {
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  return ROUTE_RULES[`${verb} ${url}`] ?? UNLISTED;
}
