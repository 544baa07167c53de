/**
 * English strings of issue #24's screen fixes (docs/reference/01-authoring.md §4 "Unsaved changes", §7
 * "Plan versions"; docs/reference/02-running.md §2): the leave-page warning, the changed-plan choice, the
 * Stop confirmation, API labels, the https:// fix-it and the field limits. Spread into `en.ts`.
 */
export const webuxEn = {
  // Leaving an editor with unsaved changes.
  'leave.question': 'You have unsaved changes. Leave this page and lose them?',
  'leave.leave': 'Leave',

  // An update refused because the plan changed since it was opened (409 PLAN_CHANGED).
  'conflict.title': 'This plan changed since you opened it',
  'conflict.text':
    'Someone saved it meanwhile — in another tab, or with a text command. Reload theirs drops your changes; Overwrite with mine saves yours over theirs; Keep editing saves nothing.',
  'conflict.reload': 'Reload theirs',
  'conflict.overwrite': 'Overwrite with mine',
  'conflict.keep': 'Keep editing',
  'conflict.reloaded': 'The saved plan is loaded; your changes were dropped.',

  // An existing run before the server's first answer (docs/reference/02-running.md §4).
  'results.phase.loading': 'Loading',
  'results.loading': 'Loading the result...',
  // Stop Test asks first (docs/reference/02-running.md §4).
  'stop.question': 'Stop this test? It ends now and keeps what it measured so far; it cannot be resumed.',
  // A URL typed without its scheme is offered https:// in one click.
  'url.noScheme': 'This URL has no http:// or https://.',
  'url.useHttps': 'Use {url}',
  // A text over its length limit (packages/plan textLimitMessage), naming the field and the limit.
  'limit.tooLong': '{field} must be at most {max} characters',
  'limit.field.body': 'Body',
  'limit.field.script': 'Script',
  'limit.field.scriptContent': 'Script content',
  'limit.field.curl': 'The curl command',
  // API labels: the host said once above a list of APIs that all call it.
  'results.apiHost': 'Host: {host}',
  // A functional API the run never reached.
  'functional.result.notRun': 'Not run',
  'functional.result.notRunText': 'This API was not called in this run, so nothing was measured or checked.',
  'functional.result.ruleNotRun': 'Not run',
} as const;
