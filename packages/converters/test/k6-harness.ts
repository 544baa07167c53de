/* eslint-disable no-restricted-imports -- Node-only test helper, imported by *.test.ts files only. */
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import type { Target } from './target';

/**
 * A small k6 runtime for generated scripts: the script's ES module is compiled to CommonJS and run in a
 * fresh node:vm context per VU (k6 gives each VU its own module scope), with k6/http answering from the
 * target's handler synchronously, as k6's own http calls are. It implements what the generator uses:
 * http.request/post, check, group, sleep, k6/execution's iterationInTest, k6/encoding.b64encode,
 * k6/metrics Rate, __VU and __ITER.
 */

export interface K6Run {
  /** Every check: name and whether it passed. */
  checks: Array<{ vu: number; name: string; ok: boolean }>;
  /** Values added to each Rate metric. */
  rates: Record<string, boolean[]>;
  /** Every request with the VU that sent it and the group it was in. */
  requests: Array<{
    vu: number;
    iteration: number;
    method: string;
    url: string;
    group: string | undefined;
    tags: unknown;
    /** The request's own `redirects` param: how many redirects k6 would follow for it. */
    redirects: number | undefined;
  }>;
  sleeps: number[];
  options: unknown;
}

interface Params {
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  timeout?: string;
  redirects?: number;
}

export function runK6Script(
  source: string,
  target: Target,
  { vus, iterations, random = Math.random }: { vus: number; iterations: number; random?: () => number },
): K6Run {
  const compiled = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const run: K6Run = { checks: [], rates: {}, requests: [], sleeps: [], options: undefined };
  let iterationInTest = 0;

  const instances = Array.from({ length: vus }, (_, i) => {
    const vu = i + 1;
    const state = { iteration: 0, iterationInTest: 0, group: undefined as string | undefined };
    const request = (method: string, url: string, body: unknown, params: Params = {}) => {
      run.requests.push({
        vu,
        iteration: state.iteration,
        method,
        url,
        group: state.group,
        tags: params.tags,
        redirects: params.redirects,
      });
      const parsed = new URL(url);
      const headers = { ...(params.headers ?? {}) };
      let text = '';
      if (body !== null && body !== undefined && typeof body === 'object') {
        text = new URLSearchParams(body as Record<string, string>).toString();
        headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
      } else if (typeof body === 'string') text = body;
      const res = target.handle({ method, url: parsed.pathname + parsed.search, headers, body: text });
      return { status: res.status, body: res.body, headers: res.headers, error: '', error_code: 0 };
    };
    // __esModule: the CommonJS output reads `default` as the ES module's default export.
    const modules: Record<string, Record<string, unknown>> = {
      'k6/http': {
        default: {
          request,
          post: (url: string, body: unknown, params?: Params) => request('POST', url, body, params),
        },
      },
      k6: {
        check: (value: unknown, sets: Record<string, (v: unknown) => boolean>) => {
          let all = true;
          for (const [name, fn] of Object.entries(sets)) {
            const ok = Boolean(fn(value));
            run.checks.push({ vu, name, ok });
            all &&= ok;
          }
          return all;
        },
        group: (name: string, fn: () => unknown) => {
          state.group = name;
          try {
            return fn();
          } finally {
            state.group = undefined;
          }
        },
        sleep: (seconds: number) => run.sleeps.push(seconds),
      },
      'k6/execution': {
        default: {
          scenario: {
            get iterationInTest() {
              return state.iterationInTest;
            },
          },
        },
      },
      'k6/encoding': {
        default: { b64encode: (text: string) => Buffer.from(text, 'utf8').toString('base64') },
      },
      'k6/metrics': {
        Rate: class {
          constructor(private readonly name: string) {}
          add(value: boolean) {
            (run.rates[this.name] ??= []).push(value);
          }
        },
      },
    };
    const module = { exports: {} as Record<string, unknown> };
    const sandbox = {
      module,
      exports: module.exports,
      require: (name: string) => {
        const found = modules[name];
        if (!found) throw new Error(`the k6 harness has no module ${name}`);
        return { __esModule: true, ...found };
      },
      __VU: vu,
      __ITER: 0,
      Math: Object.assign(Object.create(Math) as Math, { random }),
    };
    runInNewContext(compiled, sandbox, { filename: 'script.js' });
    run.options = module.exports.options;
    return { state, sandbox, main: module.exports.default as () => void };
  });

  for (let iteration = 0; iteration < iterations; iteration++) {
    for (const instance of instances) {
      instance.state.iteration = iteration;
      instance.state.iterationInTest = iterationInTest++;
      instance.sandbox.__ITER = iteration;
      instance.main();
    }
  }
  return run;
}

/** Type-checks a generated k6 script against @types/k6 (checkJs, strict); returns the diagnostics as text. */
export function typeCheckK6(source: string): string[] {
  // Beside this file, so that 'k6/http' resolves to the repository's node_modules/@types/k6.
  const fileName = fileURLToPath(new URL('./generated-k6-script.js', import.meta.url));
  const options: ts.CompilerOptions = {
    allowJs: true,
    checkJs: true,
    noEmit: true,
    strict: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ['k6'],
    lib: ['lib.es2020.d.ts'],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getCurrentDirectory = () => process.cwd();
  host.readFile = (name) => (name === fileName ? source : readFile(name));
  host.fileExists = (name) => name === fileName || fileExists(name);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language) =>
    name === fileName
      ? ts.createSourceFile(name, source, language, true, ts.ScriptKind.JS)
      : getSourceFile(name, language);
  const program = ts.createProgram([fileName], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return `${where ? `${where.line + 1}:${where.character + 1} ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}
