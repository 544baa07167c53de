/**
 * Why a request counted as failed. `http_status`: a response with status ≥ 400; `assertion`: the
 * step's assertion did not hold; `cancelled`: still in flight when the run was stopped (the target
 * may have seen it, so it stays in the totals). The engine counts by these kinds and every answer
 * that breaks failures down uses them.
 */
export const ERROR_KINDS = [
  'connect',
  'dns',
  'timeout',
  'tls',
  'http_status',
  'assertion',
  'cancelled',
  'other',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/**
 * How many characters of an error answer's body an http_status sample keeps, whichever engine or tool
 * ran the request: the built-in engine, the Locust script and the JMX for a run keep as many
 * (docs/reference/02-running.md §3 "Errors by kind").
 */
export const ERROR_BODY_SNIPPET_CHARS = 200;

/** The external load tools whose generated scripts the server can run; anything else runs built in. */
export const EXTERNAL_TOOLS = ['jmeter', 'k6', 'locust', 'taurus'] as const;
export type ExternalTool = (typeof EXTERNAL_TOOLS)[number];

/** What can run a plan: the built-in engine or one of the external tools. */
export const ENGINE_IDS = ['builtin', ...EXTERNAL_TOOLS] as const;
export type EngineId = (typeof ENGINE_IDS)[number];
