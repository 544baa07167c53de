import type { ExternalTool, ToolFailureKind } from './types';

/** Short tool names for sentences a person reads ("JMeter stopped with an error…"). */
export const TOOL_SHORT_NAMES: Readonly<Record<ExternalTool, string>> = {
  jmeter: 'JMeter',
  k6: 'k6',
  locust: 'Locust',
  taurus: 'Taurus',
};

/** How many lines of a tool's own output are kept as the details of a failure. */
export const DETAILS_LINES = 200;
/** At most this many characters of a failure's details are kept (the end of them). */
export const DETAILS_MAX_CHARS = 64_000;

/** What a tool's output says went wrong before it sent anything, when it says so recognisably. */
interface KnownCause {
  /** Matched against the tool's output and log. */
  pattern: RegExp;
  /** Completes "… before sending any request: <cause>." */
  cause: string;
}

const LOAD_CAUSES: Readonly<Record<ExternalTool, readonly KnownCause[]>> = {
  jmeter: [
    {
      pattern:
        /ForbiddenClassException|CannotResolveClassException|Problem loading XML|Error in NonGUIDriver/,
      cause: 'it could not load the test plan',
    },
  ],
  k6: [
    {
      pattern: /SyntaxError|GoError|could not initialize|ReferenceError/,
      cause: 'it could not load the script',
    },
  ],
  locust: [
    {
      pattern: /ImportError|ModuleNotFoundError|SyntaxError|Could not find '?locustfile/i,
      cause: 'it could not load the locustfile',
    },
  ],
  taurus: [
    { pattern: /ConfigError|TaurusConfigError|YAMLError/, cause: 'it could not read its configuration' },
  ],
};

/** The tool's words for why it could not load the plan, when its output shows one we know. */
export function loadFailureCause(tool: ExternalTool, output: string): string | undefined {
  return LOAD_CAUSES[tool].find((known) => known.pattern.test(output))?.cause;
}

/**
 * One sentence a person understands for a tool run that failed, e.g. "JMeter stopped with an error
 * before sending any request: it could not load the test plan." The tool's own output goes into the
 * failure's details, not into this sentence.
 */
export function toolFailureMessage(
  tool: ExternalTool,
  kind: ToolFailureKind,
  facts: { exitCode: number | null; signal?: string | null; recorded: number; output: string },
): string {
  const name = TOOL_SHORT_NAMES[tool];
  const cause = loadFailureCause(tool, facts.output);
  if (facts.recorded === 0 && cause !== undefined) {
    return `${name} stopped with an error before sending any request: ${cause}.`;
  }
  if (kind === 'no_results') return `${name} ended without sending any request.`;
  const how =
    facts.exitCode === null
      ? `was stopped by ${facts.signal ?? 'a signal'}`
      : `stopped with an error (exit code ${facts.exitCode})`;
  return facts.recorded === 0
    ? `${name} ${how} before sending any request.`
    : `${name} ${how} after ${facts.recorded} ${facts.recorded === 1 ? 'request' : 'requests'}.`;
}

/** The last `n` non-blank lines of `text`. */
export function lastLinesOf(text: string, n = DETAILS_LINES): string {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .slice(-n)
    .join('\n');
}
