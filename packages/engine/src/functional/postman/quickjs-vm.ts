/**
 * One QuickJS runtime and context (WebAssembly) with Chai and Postman's script API loaded once, which
 * then runs scripts one after the other, each with its own state, time limit and console, and the
 * global object put back after each
 * (docs/adr/0028-postman-sandbox.md §1 "One warm VM per virtual user"). Nothing of Node is inside — no
 * require, process, network or file system; the only way out is the small bridge below (logs, test
 * results, JSON-schema validation on the host with ajv) and the pm.sendRequest calls the host performs
 * through `host`.
 */
import variant from '@jitl/quickjs-singlefile-cjs-release-sync';
import Ajv from 'ajv';
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { chaiSource } from './chai-source';
import { librarySource, SANDBOX_LIBRARY_FILES, type SandboxLibrary } from './library-sources';
import { PRELUDE } from './prelude';
import { drive, lineOf, runScript, Stop, v8Wording } from './script-driver';
import {
  MAX_LOG_CHARS,
  MAX_LOGS,
  type SandboxHost,
  type SandboxRequest,
  type ScriptLog,
  type ScriptOutcome,
  type ScriptRun,
  type ScriptTest,
} from './sandbox-types';

/** Room the host gives the VM after it stopped at a limit, to read back what the script did. */
const COLLECT_GRACE_MS = 250;
const COLLECT_EXTRA_BYTES = 16 * 1024 * 1024;
/** Loading Chai and the API, and setting up each script: the sandbox's own work, not a script's. */
const SETUP_LIMIT_MS = 10_000;

let quickjs: Promise<QuickJSWASMModule> | undefined;
function loadQuickJS(): Promise<QuickJSWASMModule> {
  quickjs ??= newQuickJSWASMModuleFromVariant(variant);
  return quickjs;
}

/**
 * A script that recursed so deep that the WebAssembly call ran out of the thread's own stack before
 * QuickJS's stack check (deeply nested JSON.stringify does): the call throws a host RangeError out of
 * the middle of QuickJS, leaving that runtime half-way and the module's stack pointer where it was. Such
 * a runtime is never used or freed again (freeing it aborts the module), and the module is replaced
 * for the VMs made after (docs/adr/0028-postman-sandbox.md §1 "Stack").
 */
function brokenByHost(e: unknown): boolean {
  return e instanceof RangeError || e instanceof WebAssembly.RuntimeError;
}
function retireQuickJS(module: QuickJSWASMModule): void {
  void quickjs?.then((current) => {
    if (current === module) quickjs = undefined;
  });
}
const STACK_OVERFLOW: NonNullable<ScriptOutcome['error']> = {
  kind: 'runtime',
  message: 'RangeError: Maximum call stack size exceeded',
};

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

let live = 0;
/** VMs made and not yet disposed of in this thread: what the tests read to prove none is leaked. */
export function liveSandboxVms(): number {
  return live;
}

/** What the current script recorded; `gen` tells it from a former script's late test results. */
interface Sink {
  gen: number;
  tests: (ScriptTest | undefined)[];
  logs: ScriptLog[];
}

/** A script's outcome, and whether this VM may run the next one (false: dispose of it). */
export interface VmRun {
  outcome: ScriptOutcome;
  reusable: boolean;
}

export class SandboxVm {
  /** When the current step must end: read by QuickJS's interrupt handler between instructions. */
  private deadline = 0;
  /** A library being evaluated: since when, and the script's deadline before (library-sources.ts). */
  private loading: { since: number; deadline: number } | null = null;
  private gen = 0;
  private sink: Sink = { gen: 0, tests: [], logs: [] };
  private setupFn: QuickJSHandle | undefined;
  private resetFn: QuickJSHandle | undefined;
  private alive = true;

  /** A host error came out of QuickJS (brokenByHost): the runtime must not be touched again. */
  private broken = false;

  private constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly vm: QuickJSContext,
    private readonly memoryBytes: number,
    private readonly module: QuickJSWASMModule,
  ) {
    live++;
  }

  static async create(memoryBytes: number): Promise<SandboxVm> {
    const module = await loadQuickJS();
    const runtime = module.newRuntime();
    let vm: QuickJSContext;
    try {
      runtime.setMemoryLimit(memoryBytes);
      runtime.setMaxStackSize(1024 * 1024);
      vm = runtime.newContext();
    } catch (e) {
      runtime.dispose();
      throw e;
    }
    const box = new SandboxVm(runtime, vm, memoryBytes, module);
    try {
      box.load();
    } catch (e) {
      box.dispose();
      throw e;
    }
    return box;
  }

  private load(): void {
    const { vm } = this;
    this.deadline = Date.now() + SETUP_LIMIT_MS;
    this.runtime.setInterruptHandler(() => Date.now() > this.deadline);
    installBridge(vm, {
      log: (level, text) => {
        const { logs } = this.sink;
        if (logs.length >= MAX_LOGS) return;
        logs.push({ level, text: text.length > MAX_LOG_CHARS ? `${text.slice(0, MAX_LOG_CHARS)}…` : text });
      },
      test: (gen, index, json) => {
        if (gen !== this.sink.gen) return;
        const t = JSON.parse(json) as ScriptTest;
        this.sink.tests[index] = t.error === undefined ? t : { ...t, error: v8Wording(t.error) };
      },
      validate: validateJson,
      // Loading a library is the sandbox's own work, not the script's: the script's time limit is
      // moved on by the time its evaluation took (with the setup's own limit meanwhile).
      library: (name) => {
        if (!Object.hasOwn(SANDBOX_LIBRARY_FILES, name)) throw new Error(`no library ${name}`);
        this.loading = { since: Date.now(), deadline: this.deadline };
        this.deadline = Date.now() + SETUP_LIMIT_MS;
        return librarySource(name as SandboxLibrary);
      },
      loaded: () => {
        if (this.loading === null) return;
        this.deadline = this.loading.deadline + (Date.now() - this.loading.since);
        this.loading = null;
      },
    });
    evalOrThrow(vm, chaiSource(), 'chai.js', (h) => vm.setProp(vm.global, '__aqaChai', h));
    evalOrThrow(vm, PRELUDE, 'prelude.js', (h) => {
      this.setupFn = vm.getProp(h, 'setup');
      this.resetFn = vm.getProp(h, 'reset');
    });
  }

  /**
   * Runs one script. Its time limit starts after its setup; a script that stopped at the time or
   * memory limit, or whose globals could not be put back, leaves the VM not reusable.
   */
  async run(run: ScriptRun, host: SandboxHost, timeMs: number): Promise<VmRun> {
    if (!this.alive) throw new Error('the sandbox VM was disposed of');
    try {
      return await this.runInVm(run, host, timeMs);
    } catch (e) {
      if (!brokenByHost(e)) throw e;
      this.broken = true;
      retireQuickJS(this.module);
      // What the script recorded before it overflowed is kept; its variables are as they were given.
      const sink = this.sink;
      return {
        outcome: {
          tests: sink.tests.filter((t): t is ScriptTest => t !== undefined),
          variables: run.variables,
          request: run.request,
          logs: sink.logs,
          error: STACK_OVERFLOW,
        },
        reusable: false,
      };
    }
  }

  private async runInVm(run: ScriptRun, host: SandboxHost, timeMs: number): Promise<VmRun> {
    const { vm, runtime, memoryBytes } = this;
    const state = stateOf(run, ++this.gen);
    const sink: Sink = { gen: this.gen, tests: [], logs: [] };
    this.sink = sink;
    let error: ScriptOutcome['error'];

    const timeout = (): Stop =>
      new Stop({ kind: 'timeout', message: `the script ran past its time limit of ${timeMs} ms` });
    /** Turns a VM exception into the outcome's error (and disposes of it). */
    const classify = (handle: QuickJSHandle): Stop => {
      const e = vm.dump(handle) as {
        name?: string;
        message?: string;
        stack?: string;
        lineNumber?: number;
      } | null;
      handle.dispose();
      if (Date.now() > this.deadline || e?.message === 'interrupted') return timeout();
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

    this.deadline = Date.now() + SETUP_LIMIT_MS;
    const arg = vm.newString(JSON.stringify(state));
    const setupResult = vm.callFunction(this.setupFn!, vm.undefined, arg);
    arg.dispose();
    // A setup that fails is the sandbox's failure, not the script's: the caller says so.
    const ctl = vm.unwrapResult(setupResult);

    const call = (name: string, ...args: QuickJSHandle[]): QuickJSHandle => {
      const fn = vm.getProp(ctl, name);
      try {
        const r = vm.callFunction(fn, ctl, ...args);
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
      try {
        this.deadline = Date.now() + timeMs;
        runScript(vm, run.source, classify);
        runJobs();
        await drive(host, {
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
          deadline: () => this.deadline,
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
      let reusable = error?.kind !== 'timeout' && error?.kind !== 'memory';
      try {
        this.deadline = Date.now() + COLLECT_GRACE_MS;
        if (error?.kind === 'memory') runtime.setMemoryLimit(memoryBytes + COLLECT_EXTRA_BYTES);
        if (error) call('finish').dispose();
        result = JSON.parse(callString('result')) as typeof result;
        if (reusable) reusable = this.reset();
      } catch (e) {
        if (!(e instanceof Stop)) throw e;
        error ??= e.outcome;
        reusable = false;
      }
      return {
        outcome: {
          tests: sink.tests.filter((t): t is ScriptTest => t !== undefined),
          variables: result.variables,
          request: result.request,
          ...(result.nextRequest !== undefined ? { nextRequest: result.nextRequest } : {}),
          logs: sink.logs,
          ...(error ? { error } : {}),
        },
        reusable,
      };
    } catch (e) {
      if (brokenByHost(e)) this.broken = true;
      throw e;
    } finally {
      if (!this.broken) ctl.dispose();
    }
  }

  /** The global object as the prelude left it (prelude.ts `reset`); false when it cannot be. */
  private reset(): boolean {
    const r = this.vm.callFunction(this.resetFn!, this.vm.undefined);
    if (r.error) {
      r.error.dispose();
      return false;
    }
    const ok = this.vm.typeof(r.value) === 'boolean' && this.vm.dump(r.value) === true;
    r.value.dispose();
    return ok;
  }

  dispose(): void {
    if (!this.alive) return;
    this.alive = false;
    live--;
    // A broken runtime is left to the garbage collector with its module (brokenByHost).
    if (this.broken) return;
    this.setupFn?.dispose();
    this.resetFn?.dispose();
    this.vm.dispose();
    this.runtime.dispose();
  }
}

function stateOf(run: ScriptRun, gen: number): unknown {
  return {
    gen,
    event: run.event,
    request: run.request,
    response: run.response ?? null,
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
  test(gen: number, index: number, json: string): void;
  validate(schemaJson: string, dataJson: string): string;
  /** A library's text (library-sources.ts); throws for a name that is not one. */
  library(name: string): string;
  /** The library asked for last has been evaluated. */
  loaded(): void;
}

/** `__aqaHost`: the VM's only way to the host. Arguments arrive as VM strings/numbers, never objects. */
function installBridge(vm: QuickJSContext, bridge: Bridge): void {
  const obj = vm.newObject();
  const fns: [string, (...args: QuickJSHandle[]) => QuickJSHandle | undefined][] = [
    ['log', (l, t) => void bridge.log(vm.getString(l) as ScriptLog['level'], vm.getString(t))],
    ['test', (g, i, j) => void bridge.test(vm.getNumber(g), vm.getNumber(i), vm.getString(j))],
    ['validate', (s, d) => vm.newString(bridge.validate(vm.getString(s), vm.getString(d)))],
    ['library', (n) => vm.newString(bridge.library(vm.getString(n)))],
    ['loaded', () => void bridge.loaded()],
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
