/**
 * Runs one Postman pre-request or test script in a real sandbox: QuickJS compiled to WebAssembly, a
 * fresh runtime per script with a memory limit and a time limit, and nothing of Node inside — no
 * require, process, network or file system; the only way out is the small bridge below (logs, test
 * results, JSON-schema validation on the host with ajv, and pm.sendRequest through `host`).
 * Why QuickJS, the limits, and which parts of Postman's API are there: docs/adr/0028-postman-sandbox.md.
 */
import variant from '@jitl/quickjs-singlefile-cjs-release-sync';
import Ajv from 'ajv';
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { chaiSource } from './chai-source';
import { PRELUDE } from './prelude';

export interface SandboxHeader {
  key: string;
  value: string;
}
export interface SandboxRequest {
  name: string;
  method: string;
  url: string;
  headers: SandboxHeader[];
  body?: string;
}
export interface SandboxResponse {
  code: number;
  status: string;
  headers: SandboxHeader[];
  body: string;
  responseTime: number;
  responseSize: number;
}
export interface SandboxVariables {
  globals: Record<string, string>;
  collection: Record<string, string>;
  environment: Record<string, string>;
  data: Record<string, string>;
  local: Record<string, string>;
}
export interface ScriptRun {
  event: 'prerequest' | 'test';
  source: string;
  request: SandboxRequest;
  /** Test scripts only. */
  response?: SandboxResponse;
  /** Not mutated; the outcome carries the new values. */
  variables: SandboxVariables;
  iteration: number;
  iterationCount: number;
  /**
   * Test scripts: the cookies of the user's jar for the request's URL, read by pm.cookies; absent,
   * pm.cookies says it is not available.
   */
  cookies?: { name: string; value: string }[];
}
export interface ScriptTest {
  name: string;
  passed: boolean;
  error?: string;
  skipped?: boolean;
}
export interface ScriptLog {
  level: 'log' | 'info' | 'warn' | 'error';
  text: string;
}
export interface ScriptOutcome {
  tests: ScriptTest[];
  variables: SandboxVariables;
  /** A pre-request script may change url, headers, body. */
  request: SandboxRequest;
  /** postman.setNextRequest(name) / (null) = stop; absent = not called. */
  nextRequest?: string | null;
  logs: ScriptLog[];
  error?: { kind: 'syntax' | 'runtime' | 'timeout' | 'memory'; message: string; line?: number };
}
export interface SandboxHost {
  sendRequest(req: SandboxRequest): Promise<SandboxResponse | { error: string }>;
}
export interface SandboxLimits {
  timeMs?: number;
  memoryBytes?: number;
}

export const DEFAULT_TIME_MS = 1_000;
export const DEFAULT_MEMORY_BYTES = 32 * 1024 * 1024;
/** console output kept per script: entries, and characters per entry. */
export const MAX_LOGS = 100;
export const MAX_LOG_CHARS = 2_048;
/** Room the host gives the VM after it stopped at a limit, to read back what the script did. */
const COLLECT_GRACE_MS = 250;
const COLLECT_EXTRA_BYTES = 16 * 1024 * 1024;
const SCRIPT_FILE = 'script.js';
const SETUP_LIMIT_MS = 10_000;

let quickjs: Promise<QuickJSWASMModule> | undefined;
function loadQuickJS(): Promise<QuickJSWASMModule> {
  quickjs ??= newQuickJSWASMModuleFromVariant(variant);
  return quickjs;
}

let ajv: Ajv | undefined;
/** Validates on the host: ajv (draft-07 and later; a draft-04 `$schema` is read as draft-07). */
function validateJson(schemaJson: string, dataJson: string): string {
  ajv ??= new Ajv({ allErrors: true, strict: false, validateSchema: false });
  try {
    const schema = JSON.parse(schemaJson) as unknown;
    if (schema && typeof schema === 'object' && '$schema' in schema) {
      delete (schema as Record<string, unknown>)['$schema'];
    }
    const validate = ajv.compile(schema as object);
    const valid = validate(JSON.parse(dataJson));
    return JSON.stringify({
      valid,
      errors: valid ? '' : ajv.errorsText(validate.errors, { dataVar: 'data' }),
    });
  } catch (e) {
    return JSON.stringify({ valid: false, errors: `the schema is not valid: ${(e as Error).message}` });
  }
}

class Stop extends Error {
  constructor(readonly outcome: NonNullable<ScriptOutcome['error']>) {
    super(outcome.message);
  }
}

export async function runPostmanScript(
  run: ScriptRun,
  host: SandboxHost,
  limits: SandboxLimits = {},
): Promise<ScriptOutcome> {
  const timeMs = limits.timeMs ?? DEFAULT_TIME_MS;
  const memoryBytes = limits.memoryBytes ?? DEFAULT_MEMORY_BYTES;
  const module = await loadQuickJS();
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(memoryBytes);
  runtime.setMaxStackSize(1024 * 1024);
  // Loading Chai and the API is the sandbox's own work, not the script's: it has a limit of its own.
  let deadline = Date.now() + SETUP_LIMIT_MS;
  runtime.setInterruptHandler(() => Date.now() > deadline);
  const vm = runtime.newContext();

  const tests: (ScriptTest | undefined)[] = [];
  const logs: ScriptLog[] = [];
  let error: ScriptOutcome['error'];
  let ctl: QuickJSHandle | undefined;

  const timeout = (): Stop =>
    new Stop({ kind: 'timeout', message: `the script ran past its time limit of ${timeMs} ms` });
  /** Turns a VM exception into the outcome's error (and disposes it). */
  const classify = (handle: QuickJSHandle): Stop => {
    const e = vm.dump(handle) as {
      name?: string;
      message?: string;
      stack?: string;
      lineNumber?: number;
    } | null;
    handle.dispose();
    if (Date.now() > deadline || e?.message === 'interrupted') return timeout();
    const message =
      typeof e?.message === 'string' ? e.message : typeof e === 'string' ? e : JSON.stringify(e);
    if (/out of memory|string too long|invalid array length/i.test(message)) {
      return new Stop({
        kind: 'memory',
        message: `the script went past its memory limit of ${Math.round(memoryBytes / 1024 / 1024)} MB${e ? ` (${message})` : ''}`,
      });
    }
    const line = e?.lineNumber ?? lineOf(e?.stack);
    // A parse error carries lineNumber itself; one thrown while running (JSON.parse's) does not.
    const kind = e?.name === 'SyntaxError' && e.lineNumber !== undefined ? 'syntax' : 'runtime';
    return new Stop({
      kind,
      message: e?.name ? `${e.name}: ${v8Wording(message)}` : message,
      ...(line !== undefined ? { line } : {}),
    });
  };
  const call = (name: string, ...args: QuickJSHandle[]): QuickJSHandle => {
    const fn = vm.getProp(ctl!, name);
    try {
      const r = vm.callFunction(fn, ctl!, ...args);
      if (r.error) throw classify(r.error);
      return r.value;
    } finally {
      fn.dispose();
      for (const a of args) a.dispose();
    }
  };
  const callString = (name: string, ...args: QuickJSHandle[]): string => {
    const h = call(name, ...args);
    try {
      return vm.typeof(h) === 'string' ? vm.getString(h) : String(vm.dump(h));
    } finally {
      h.dispose();
    }
  };
  const runJobs = (): void => {
    const r = runtime.executePendingJobs();
    if (r.error) throw classify(r.error);
  };

  try {
    installBridge(vm, {
      log: (level, text) => {
        if (logs.length >= MAX_LOGS) return;
        logs.push({ level, text: text.length > MAX_LOG_CHARS ? `${text.slice(0, MAX_LOG_CHARS)}…` : text });
      },
      test: (index, json) => {
        const t = JSON.parse(json) as ScriptTest;
        tests[index] = t.error === undefined ? t : { ...t, error: v8Wording(t.error) };
      },
      validate: validateJson,
    });
    evalOrThrow(vm, chaiSource(), 'chai.js', (h) => vm.setProp(vm.global, '__aqaChai', h));
    evalOrThrow(vm, PRELUDE, 'prelude.js', () => undefined);
    const setup = vm.getProp(vm.global, '__aqaSetup');
    const r = vm.callFunction(setup, vm.undefined, vm.newString(JSON.stringify(stateOf(run))));
    setup.dispose();
    ctl = vm.unwrapResult(r);
  } catch (e) {
    vm.dispose();
    runtime.dispose();
    throw e;
  }

  try {
    deadline = Date.now() + timeMs;
    runScript(vm, run.source, classify);
    runJobs();
    await drive(vm, host, {
      take: () => JSON.parse(callString('take')) as { id: number; request: SandboxRequest }[],
      deliver: (id, outcome) => {
        call('deliver', vm.newNumber(id), vm.newString(JSON.stringify(outcome))).dispose();
        runJobs();
      },
      timerDue: () => {
        const h = call('timerDue');
        const n = vm.getNumber(h);
        h.dispose();
        return n;
      },
      runTimers: () => {
        call('runTimers').dispose();
        runJobs();
      },
      checkAsyncFailure: () => {
        const failed = vm.getProp(vm.global, '__aqaAsyncError');
        const isSet = vm.typeof(failed) !== 'undefined';
        if (isSet) throw classify(failed);
        failed.dispose();
      },
      deadline: () => deadline,
      timeout,
    });
    call('finish').dispose();
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    error = e.outcome;
  }

  // Read back what the script did, even when it stopped at a limit.
  let result: Pick<ScriptOutcome, 'variables' | 'request' | 'nextRequest'> = {
    variables: run.variables,
    request: run.request,
  };
  try {
    deadline = Date.now() + COLLECT_GRACE_MS;
    if (error?.kind === 'memory') runtime.setMemoryLimit(memoryBytes + COLLECT_EXTRA_BYTES);
    if (error) call('finish').dispose();
    result = JSON.parse(callString('result')) as typeof result;
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    error ??= e.outcome;
  } finally {
    ctl?.dispose();
    vm.dispose();
    runtime.dispose();
  }

  return {
    tests: tests.filter((t): t is ScriptTest => t !== undefined),
    variables: result.variables,
    request: result.request,
    ...(result.nextRequest !== undefined ? { nextRequest: result.nextRequest } : {}),
    logs,
    ...(error ? { error } : {}),
  };
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
function lineOf(stack: string | undefined): number | undefined {
  const m = stack ? new RegExp(`${SCRIPT_FILE.replace('.', '\\.')}:(\\d+)`).exec(stack) : null;
  return m ? Number(m[1]) : undefined;
}

function stateOf(run: ScriptRun): unknown {
  if (run.event === 'test' && !run.response) throw new Error('a test script needs the response it tests');
  return {
    event: run.event,
    request: run.request,
    response: run.response,
    variables: {
      globals: { ...run.variables.globals },
      collection: { ...run.variables.collection },
      environment: { ...run.variables.environment },
      data: { ...run.variables.data },
      local: { ...run.variables.local },
    },
    iteration: run.iteration,
    iterationCount: run.iterationCount,
    cookies: run.cookies ?? null,
  };
}

interface Bridge {
  log(level: ScriptLog['level'], text: string): void;
  test(index: number, json: string): void;
  validate(schemaJson: string, dataJson: string): string;
}

/** `__aqaHost`: the VM's only way to the host. Arguments arrive as VM strings/numbers, never objects. */
function installBridge(vm: QuickJSContext, bridge: Bridge): void {
  const obj = vm.newObject();
  const fns: [string, (...args: QuickJSHandle[]) => QuickJSHandle | undefined][] = [
    ['log', (l, t) => void bridge.log(vm.getString(l) as ScriptLog['level'], vm.getString(t))],
    ['test', (i, j) => void bridge.test(vm.getNumber(i), vm.getString(j))],
    ['validate', (s, d) => vm.newString(bridge.validate(vm.getString(s), vm.getString(d)))],
  ];
  for (const [name, impl] of fns) {
    const fn = vm.newFunction(name, impl);
    vm.setProp(obj, name, fn);
    fn.dispose();
  }
  vm.setProp(vm.global, '__aqaHost', obj);
  obj.dispose();
}

function evalOrThrow(
  vm: QuickJSContext,
  source: string,
  file: string,
  use: (h: QuickJSHandle) => void,
): void {
  const r = vm.evalCode(source, file);
  if (r.error) {
    const e = vm.dump(r.error) as unknown;
    r.error.dispose();
    throw new Error(`the sandbox's ${file} failed to load: ${JSON.stringify(e)}`);
  }
  use(r.value);
  r.value.dispose();
}

/**
 * The user's script, as a global script (sloppy mode, as Postman runs it). One that only parses as the
 * body of an async function (a top-level `await`) is run as one, on its first line, so lines still match.
 */
function runScript(vm: QuickJSContext, source: string, classify: (h: QuickJSHandle) => Stop): void {
  const r = vm.evalCode(source, SCRIPT_FILE);
  if (!r.error) {
    r.value.dispose();
    return;
  }
  const stop = classify(r.error);
  if (stop.outcome.kind !== 'syntax' || !/\bawait\b/.test(source)) throw stop;
  const wrapped = `(async () => {${source}\n})().catch((e) => { globalThis.__aqaAsyncError = e; });`;
  const again = vm.evalCode(wrapped, SCRIPT_FILE);
  if (again.error) {
    again.error.dispose();
    throw stop;
  }
  again.value.dispose();
}

interface Driver {
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
async function drive(_vm: QuickJSContext, host: SandboxHost, d: Driver): Promise<void> {
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
