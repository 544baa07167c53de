/**
 * How one script runs inside a sandbox VM (docs/adr/0028-postman-sandbox.md): its source as Postman
 * runs it, the host's loop that performs its pm.sendRequest calls and timers within its time limit, and
 * the wording of its errors.
 */
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import type { SandboxHost, SandboxRequest, SandboxResponse, ScriptOutcome } from './sandbox-types';

const SCRIPT_FILE = 'script.js';

/** Why a script stopped, as its outcome says it. */
export class Stop extends Error {
  constructor(readonly outcome: NonNullable<ScriptOutcome['error']>) {
    super(outcome.message);
  }
}

/**
 * QuickJS's wording of its commonest errors, as V8 (so Postman) words them: a test that fails on a
 * missing field reads the same here as in Postman (docs/adr/0028-postman-sandbox.md §4).
 */
export function v8Wording(message: string): string {
  return message
    .replace(
      /^cannot read property '(.*)' of (undefined|null)$/,
      "Cannot read properties of $2 (reading '$1')",
    )
    .replace(/^cannot set property '(.*)' of (undefined|null)$/, "Cannot set properties of $2 (setting '$1')")
    .replace(/^'(.*)' is not defined$/, '$1 is not defined');
}

/** The first line of the user's script in a QuickJS stack ("    at f (script.js:3:5)"). */
export function lineOf(stack: string | undefined): number | undefined {
  const m = stack ? new RegExp(`${SCRIPT_FILE.replace('.', '\\.')}:(\\d+)`).exec(stack) : null;
  return m ? Number(m[1]) : undefined;
}

/**
 * The user's script, run as the body of an arrow function at the global scope, as Postman runs it
 * (uniscope makes each script the body of a function, postman-sandbox an async one): its `var`, `let`,
 * `const` and function declarations are its own, so the next script of the same warm VM may declare
 * them again; `this` is the global object and there is no `arguments`, as at the top level. It is first
 * compiled, without running, as a global script in sloppy mode, so a syntax error reads as it did when
 * each script was a global script, with its line; the wrapper opens on the script's first line, so
 * lines still match (docs/adr/0028-postman-sandbox.md §1 "One warm VM per virtual user"). One that
 * only parses as the body of an async function (a top-level `await`) runs as one.
 */
export function runScript(vm: QuickJSContext, source: string, classify: (h: QuickJSHandle) => Stop): void {
  const check = vm.evalCode(source, SCRIPT_FILE, { compileOnly: true });
  if (check.error) {
    const stop = classify(check.error);
    if (stop.outcome.kind !== 'syntax' || !/\bawait\b/.test(source)) throw stop;
    const wrapped = `(async () => {${source}\n})().catch((e) => { globalThis.__aqaAsyncError = e; });`;
    const again = vm.evalCode(wrapped, SCRIPT_FILE);
    if (again.error) {
      again.error.dispose();
      throw stop;
    }
    again.value.dispose();
    return;
  }
  check.value.dispose();
  const r = vm.evalCode(`(() => {${source}\n})();`, SCRIPT_FILE);
  if (r.error) throw classify(r.error);
  r.value.dispose();
}

export interface Driver {
  take(): { id: number; request: SandboxRequest }[];
  deliver(id: number, outcome: { response: SandboxResponse } | { error: string }): void;
  timerDue(): number;
  runTimers(): void;
  checkAsyncFailure(): void;
  deadline(): number;
  timeout(): Stop;
}

/**
 * After the script's own run: performs its pm.sendRequest calls through the host and runs its timers,
 * delivering each result to the VM, until nothing is pending or the time limit is reached.
 */
export async function drive(host: SandboxHost, d: Driver): Promise<void> {
  const inFlight = new Map<
    number,
    Promise<{ id: number; outcome: { response: SandboxResponse } | { error: string } }>
  >();
  for (;;) {
    d.checkAsyncFailure();
    for (const { id, request } of d.take()) {
      inFlight.set(
        id,
        host.sendRequest(request).then(
          (r) => ({ id, outcome: 'error' in r ? { error: r.error } : { response: r } }),
          (e: unknown) => ({ id, outcome: { error: e instanceof Error ? e.message : String(e) } }),
        ),
      );
    }
    const due = d.timerDue();
    if (inFlight.size === 0 && due < 0) return;
    const left = d.deadline() - Date.now();
    if (left <= 0) throw d.timeout();
    const wake = due < 0 ? left : Math.min(left, Math.max(0, due - Date.now()));
    let timer: NodeJS.Timeout | undefined;
    const settled = await Promise.race([
      ...inFlight.values(),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), wake))),
    ]);
    clearTimeout(timer);
    if (settled) {
      inFlight.delete(settled.id);
      d.deliver(settled.id, settled.outcome);
    } else if (due >= 0 && Date.now() >= due) {
      d.runTimers();
    }
  }
}
