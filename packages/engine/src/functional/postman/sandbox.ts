/**
 * Runs Postman pre-request and test scripts in a real sandbox: QuickJS compiled to WebAssembly, with a
 * memory limit and a time limit, and nothing of Node inside (quickjs-vm.ts). `runPostmanScript` runs
 * one script in a VM of its own; a run's virtual user keeps one warm VM for all its scripts
 * (warm-sandbox.ts). Why QuickJS, the limits, and which parts of Postman's API are there:
 * docs/adr/0028-postman-sandbox.md.
 */
import type { SandboxHost, SandboxLimits, ScriptOutcome, ScriptRun } from './sandbox-types';
import { PostmanSandbox } from './warm-sandbox';

export type {
  SandboxHeader,
  SandboxHost,
  SandboxLimits,
  SandboxRequest,
  SandboxResponse,
  SandboxVariables,
  ScriptLog,
  ScriptOutcome,
  ScriptRun,
  ScriptTest,
} from './sandbox-types';
export { DEFAULT_MEMORY_BYTES, DEFAULT_TIME_MS, MAX_LOG_CHARS, MAX_LOGS } from './sandbox-types';
export { v8Wording } from './script-driver';
export { PostmanSandbox } from './warm-sandbox';

/** One script in a fresh VM, disposed of after it: for a caller with no virtual user to keep one for. */
export async function runPostmanScript(
  run: ScriptRun,
  host: SandboxHost,
  limits: SandboxLimits = {},
): Promise<ScriptOutcome> {
  const sandbox = new PostmanSandbox(limits);
  try {
    return await sandbox.run(run, host);
  } finally {
    sandbox.dispose();
  }
}
