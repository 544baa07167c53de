import {
  ApiDefinitionSchema,
  BODY_METHODS,
  FUNCTIONAL_BOUNDS,
  FUNCTIONAL_DEFAULTS,
  type HttpMethod,
  HTTP_METHODS,
} from '@aqa/plan';
import { type CheckContext, readAssert, readAssertJsonPath, readAssertXPath, readExtractors } from './checks';
import {
  type TaurusApi,
  type TaurusDataSource,
  type TaurusReadOptions,
  type TaurusReadResult,
  NOT_TAURUS_CONFIGURATION,
  TaurusScriptError,
  type TaurusWarning,
  type TaurusWarningEffect,
} from './taurus-model';
import { durationMs, jmeterToTemplate, pathKey, scalarText } from './taurus-text';
import { defaultExecutor } from './script-framework';
import { readDataSources, sourceColumns } from './taurus-data-sources';
import {
  bounded,
  type Load,
  readExecutions,
  readLoad,
  runnableExecutions,
  type TaurusReadPurpose,
  type Warn,
} from './taurus-execution';
import { readPerformanceLoad, type TaurusPerformanceLoad } from './taurus-load-profile';
import { type LineTable, type Plain, type PlainMap, isPlainMap, lineOf, readTaurusTree } from './yaml-tree';

/*
 * Taurus (bzt) YAML → the functional plan's fields, for the script screen (docs/reference/02-running.md
 * §3 "Taurus scripts", which maps each key). Pure and browser-safe. What it cannot run becomes a
 * warning naming the YAML path, its line and its effect; a script with nothing it can run is a
 * TaurusScriptError carrying those warnings.
 */

/** JMeter's browser simulation and connection settings: they change how JMeter sends, not what. */
const BROWSER_SETTINGS = new Set([
  'store-cache',
  'store-cookie',
  'use-dns-cache-mgr',
  'retrieve-resources',
  'retrieve-resources-regex',
  'concurrent-pool-size',
  'force-parent-sample',
  'keepalive',
  'content-encoding',
  'follow-redirects',
  'random-source-ip',
]);
/**
 * Browser settings whose value `false` is what the functional runner does anyway (it follows no
 * redirect and fetches no embedded resource, docs/adr/0015-target-guard.md "Redirects"), so they are
 * read without a warning; AnybodyQA's own Taurus scripts set both.
 */
const RUNNER_DEFAULT_FALSE = new Set(['follow-redirects', 'retrieve-resources']);
const SCENARIO_KEYS = new Set([
  'requests',
  'headers',
  'default-address',
  'think-time',
  'timeout',
  'variables',
  'data-sources',
  'script',
]);
const REQUEST_KEYS = new Set([
  'url',
  'method',
  'label',
  'headers',
  'body',
  'think-time',
  'timeout',
  'assert',
  'assert-jsonpath',
  'assert-xpath',
  'extract-jsonpath',
  'extract-regexp',
  'extract-boundary',
]);
const BLOCKS: Record<string, string> = {
  if: 'runs its requests only when a JMeter condition holds',
  loop: 'repeats its requests',
  while: 'repeats its requests while a JMeter condition holds',
  foreach: 'repeats its requests for each value of a variable',
};
const MAX_INCLUDE_DEPTH = 20;

interface Scope {
  headers: Record<string, string>;
  defaultAddress: string | undefined;
  timeoutMs: number | undefined;
  /** Where that timeout is written, for the warning when it is rounded. */
  timeoutAt: { path: string; container: PlainMap } | undefined;
}

/** Reads a Taurus script. Throws TaurusScriptError when it is not one, or when nothing in it can run. */
export function readTaurusScript(text: string, options: TaurusReadOptions = {}): TaurusReadResult {
  return new TaurusReader(options).read(text);
}

class TaurusReader {
  private readonly warnings: TaurusWarning[] = [];
  private lines: LineTable = new WeakMap();
  private scenarios: PlainMap = {};
  private readonly apis: TaurusApi[] = [];
  private readonly dataSources: TaurusDataSource[] = [];
  private readonly variables: Record<string, string> = {};
  /** Names an extractor or data source column sets while the test runs: they stay {{name}}. */
  private readonly setWhileRunning = new Set<string>();
  private thinkTimeMs: number | undefined;
  private thinkTimeS = 0;
  private readonly files: Readonly<Record<string, string>>;
  private readonly purpose: TaurusReadPurpose;
  private readonly check: CheckContext;
  /** this.warn with its default effect, for the readers of the execution settings and of the checks. */
  private readonly report: Warn = (path, container, key, message) => this.warn(path, container, key, message);

  constructor(options: TaurusReadOptions) {
    this.files = options.files ?? {};
    this.purpose = options.purpose ?? 'functional';
    this.check = {
      warn: this.report,
      template: (value, path, container, key) => this.template(value, path, container, key),
    };
  }

  read(source: string): TaurusReadResult {
    const tree = readTaurusTree(source);
    this.lines = tree.lines;
    for (const doc of tree.notMaps) {
      this.warnings.push({
        path: `document ${doc.index + 1}`,
        line: doc.line,
        message: 'This YAML document is not a map of Taurus settings; it is skipped',
        effect: 'skipped',
      });
    }
    const root = tree.root;
    if (root === null) {
      this.warnings.forEach((w) => (w.effect = 'refused'));
      throw new TaurusScriptError(NOT_TAURUS_CONFIGURATION, this.warnings);
    }
    if (isPlainMap(root.scenarios)) this.scenarios = root.scenarios;
    else if (root.scenarios !== undefined) {
      this.warn('scenarios', root, 'scenarios', 'scenarios must map names to scenarios; it is skipped');
    }
    for (const key of Object.keys(root)) {
      if (key !== 'execution' && key !== 'scenarios') {
        this.warn(
          key,
          root,
          key,
          `${key} holds Taurus's own settings (tools, reports, services), which ${this.purpose === 'performance' ? 'a performance plan does not carry' : 'a functional test does not use'}; it is skipped`,
        );
      }
    }

    const executions = readExecutions(root, this.report);
    const runnable = runnableExecutions(
      executions,
      defaultExecutor(root),
      this.scenarios,
      this.report,
      this.purpose,
    );
    this.collectVariables(runnable.map((r) => r.scenario));

    let load: Load | undefined;
    let performance: TaurusPerformanceLoad | undefined;
    let testName = '';
    for (const run of runnable) {
      if (this.purpose === 'performance' && performance !== undefined) {
        // A plan has one load: the first execution's (docs/adr/0027-load-profiles.md "Importers").
        this.warn(
          run.path,
          run.execution,
          'scenario',
          `This execution (scenario ${run.name}) is skipped: a performance plan carries one execution's requests and load, the first one's`,
        );
        continue;
      }
      const before = this.apis.length;
      this.readScenario(run.scenario, run.scenarioPath, emptyScope(), [run.name], true);
      if (this.apis.length === before) continue;
      if (this.purpose === 'performance') {
        performance = readPerformanceLoad(run.execution, run.path, this.apis.length, this.report);
        // The functional fields are filled all the same; their bounds are no performance plan's.
        load = readLoad(run.execution, run.path, () => undefined);
        testName = run.name;
        continue;
      }
      const thisLoad = readLoad(run.execution, run.path, this.report);
      if (load === undefined) {
        load = thisLoad;
        testName = run.name;
      } else if (thisLoad.key !== load.key) {
        this.warn(
          run.path,
          run.execution,
          'scenario',
          `This execution's load (${thisLoad.words}) is skipped: its requests run after the first execution's, with that execution's load (${load.words})`,
        );
      }
    }
    if (load === undefined || this.apis.length === 0) {
      const reasons = this.warnings.map(
        (w) => `${w.path}${w.line === undefined ? '' : ` (line ${w.line})`}: ${w.message}`,
      );
      this.warnings.forEach((w) => (w.effect = 'refused'));
      throw new TaurusScriptError(
        `Nothing in this script can run as ${this.purpose === 'performance' ? 'a performance plan' : 'a functional test'}${reasons.length === 0 ? '' : `: ${reasons.slice(0, 5).join('; ')}${reasons.length > 5 ? `; and ${reasons.length - 5} more` : ''}`}`,
        uniqueWarnings(this.warnings),
      );
    }
    this.warnUnsetVariables();
    return {
      test_name: oneLineText(testName) || 'Taurus script',
      apis: this.apis,
      concurrent_users: load.users,
      iterations: load.iterations,
      ramp_up_time: load.rampUpS,
      test_duration: load.durationMin,
      think_time: this.thinkTimeS,
      variables: this.variables,
      data_sources: this.dataSources,
      warnings: uniqueWarnings(this.warnings),
      ...(performance === undefined
        ? {}
        : { performance: { ...performance, think_time_ms: this.thinkTimeMs ?? 0 } }),
    };
  }

  /**
   * A {{name}} the calls send that nothing in the script sets goes out as the literal text (the runner
   * keeps a template it has no value for), so it is named, once, at the first call that sends it.
   * A data source whose columns are not known yet (its file not supplied) may set any name: then
   * nothing is said.
   */
  private warnUnsetVariables(): void {
    if (this.dataSources.some((d) => d.variable_names === null && !d.supplied)) return;
    const named = new Set<string>();
    for (const api of this.apis) {
      const texts = [
        api.url,
        api.body,
        ...Object.values(api.headers),
        ...api.params.map((p) => p.value),
        ...api.validations.map((v) => v.expected_value ?? ''),
      ];
      for (const text of texts) {
        for (const match of text.matchAll(/\{\{([A-Za-z_][A-Za-z0-9_.-]*)\}\}/g)) {
          const name = match[1] ?? '';
          if (named.has(name) || this.setWhileRunning.has(name) || Object.hasOwn(this.variables, name))
            continue;
          named.add(name);
          this.warnings.push({
            path: api.source.path,
            ...(api.source.line === undefined ? {} : { line: api.source.line }),
            message: `No variable, extractor or data source column in this script sets \${${name}}, so {{${name}}} is sent as written`,
            effect: 'skipped',
          });
        }
      }
    }
  }

  // ---- scenarios ----

  /** Variables of every scenario the runnable executions reach; later ones replace earlier ones. */
  private collectVariables(roots: PlainMap[]): void {
    const seen = new Set<PlainMap>();
    const visit = (scenario: PlainMap, depth: number) => {
      if (seen.has(scenario) || depth > MAX_INCLUDE_DEPTH) return;
      seen.add(scenario);
      if (isPlainMap(scenario.variables)) {
        for (const [name, value] of Object.entries(scenario.variables)) {
          const text = scalarText(value);
          if (text !== undefined) this.variables[name] = jmeterToTemplate(text).text;
        }
      }
      for (const name of sourceColumns(scenario, this.files)) this.setWhileRunning.add(name);
      walkRequests(scenario.requests, depth, (item) => {
        for (const kind of [
          'extract-jsonpath',
          'extract-regexp',
          'extract-boundary',
          'extract-xpath',
          'extract-css-jquery',
        ]) {
          if (isPlainMap(item[kind]))
            for (const name of Object.keys(item[kind])) this.setWhileRunning.add(name);
        }
        if (isPlainMap(item['set-variables'])) {
          for (const name of Object.keys(item['set-variables'])) this.setWhileRunning.add(name);
        }
        const included = scalarText(item['include-scenario']);
        const target =
          included === undefined || !Object.hasOwn(this.scenarios, included)
            ? undefined
            : this.scenarios[included];
        if (isPlainMap(target)) visit(target, depth + 1);
      });
    };
    roots.forEach((scenario) => visit(scenario, 0));
    // A variable's value may use the ones before it.
    for (let pass = 0; pass < 5; pass++) {
      for (const [name, value] of Object.entries(this.variables))
        this.variables[name] = this.putVariables(value);
    }
  }

  private readScenario(scenario: PlainMap, path: string, outer: Scope, stack: string[], top: boolean): void {
    for (const key of Object.keys(scenario)) {
      if (SCENARIO_KEYS.has(key) || BROWSER_SETTINGS.has(key)) continue;
      this.warn(
        `${path}${pathKey(key)}`,
        scenario,
        key,
        `${key} is not something ${this.purpose === 'performance' ? 'a performance plan' : 'a functional test'} can use; it is skipped`,
      );
    }
    const browser = Object.keys(scenario).filter(
      (key) => BROWSER_SETTINGS.has(key) && !(RUNNER_DEFAULT_FALSE.has(key) && scenario[key] === false),
    );
    if (browser.length > 0) {
      this.warn(
        `${path}${pathKey(browser[0] ?? '')}`,
        scenario,
        browser[0] ?? '',
        `${browser.join(', ')} set how JMeter simulates a browser; the functional runner sends each call as written, so ${browser.length === 1 ? 'it is' : 'they are'} skipped`,
      );
    }
    if (scenario.script !== undefined) {
      this.warn(
        `${path}.script`,
        scenario,
        'script',
        `This scenario runs the script file ${scalarText(scenario.script) ?? ''}, which AnybodyQA cannot read; it is skipped`,
      );
      return;
    }
    readDataSources(scenario, path, {
      files: this.files,
      lines: this.lines,
      warn: this.report,
      sources: this.dataSources,
    });
    const scope: Scope = {
      headers: {
        ...outer.headers,
        ...this.headers(scenario.headers, `${path}.headers`, scenario, 'headers'),
      },
      defaultAddress: this.defaultAddress(scenario, path) ?? outer.defaultAddress,
      ...(scenario.timeout === undefined || scenario.timeout === null
        ? { timeoutMs: outer.timeoutMs, timeoutAt: outer.timeoutAt }
        : {
            timeoutMs: this.timeout(scenario, path),
            timeoutAt: { path: `${path}.timeout`, container: scenario },
          }),
    };
    if (scenario['think-time'] !== undefined) {
      const ms = durationMs(scenario['think-time']);
      if (ms === undefined)
        this.warn(
          `${path}.think-time`,
          scenario,
          'think-time',
          `think-time "${scalarText(scenario['think-time']) ?? ''}" is not a duration; it is skipped`,
        );
      else if (this.thinkTimeMs === undefined && top) {
        this.thinkTimeMs = ms;
        const seconds = Math.ceil(ms / 1000);
        const bounds = FUNCTIONAL_BOUNDS.think_time;
        this.thinkTimeS = bounded(
          // A performance plan keeps the milliseconds (performance.think_time_ms).
          this.purpose === 'performance' ? () => undefined : this.report,
          seconds,
          bounds,
          'think-time',
          'seconds',
          ms % 1000 !== 0,
          `${path}.think-time`,
          scenario,
        );
      } else if (ms !== this.thinkTimeMs)
        this.warn(
          `${path}.think-time`,
          scenario,
          'think-time',
          `This think-time is skipped: the test pauses the same think time (the first scenario's) before every call`,
        );
    } else if (top && this.thinkTimeMs === undefined) this.thinkTimeMs = 0;
    if (!Array.isArray(scenario.requests)) {
      this.warn(path, scenario, 'requests', 'This scenario has no requests list; it is skipped');
      return;
    }
    this.readRequests(scenario.requests, `${path}.requests`, scope, stack);
  }

  private readRequests(list: Plain[], path: string, scope: Scope, stack: string[]): void {
    list.forEach((item, j) => {
      const at = `${path}[${j}]`;
      if (typeof item === 'string') {
        this.readRequest({ url: item }, at, list, j, scope);
        return;
      }
      if (!isPlainMap(item)) {
        this.warn(at, list, j, 'This request is neither a URL nor a map; it is skipped');
        return;
      }
      if (item['include-scenario'] !== undefined) {
        this.include(item, at, scope, stack);
        return;
      }
      if (item.transaction !== undefined) {
        const inner = item.do;
        this.warn(
          at,
          list,
          j,
          `The transaction "${scalarText(item.transaction) ?? ''}" groups its requests in one JMeter sample; the grouping is skipped and its requests run as plain calls`,
        );
        if (Array.isArray(inner)) this.readRequests(inner, `${at}.do`, scope, stack);
        return;
      }
      const block = Object.keys(BLOCKS).find((key) => item[key] !== undefined);
      if (block !== undefined) {
        const count = countRequests(item);
        this.warn(
          at,
          list,
          j,
          `This ${block} block ${BLOCKS[block] ?? ''}, which a functional test cannot express; it and its ${count} request(s) are skipped`,
        );
        return;
      }
      if (item.action !== undefined) {
        const action = scalarText(item.action) ?? '';
        this.warn(
          at,
          list,
          j,
          action === 'pause'
            ? `This pause (${scalarText(item['pause-duration']) ?? 'no duration'}) is skipped: the test pauses its think time before every call`
            : `The ${action} action controls JMeter's threads; it is skipped`,
        );
        return;
      }
      if (item['set-variables'] !== undefined) {
        this.warn(at, list, j, 'set-variables changes variables while JMeter runs; it is skipped');
        return;
      }
      if (item.url === undefined) {
        this.warn(
          at,
          list,
          j,
          `This item (${Object.keys(item).slice(0, 3).join(', ')}) is not an HTTP request; it is skipped`,
        );
        return;
      }
      this.readRequest(item, at, list, j, scope);
    });
  }

  private include(item: PlainMap, at: string, scope: Scope, stack: string[]): void {
    const name = scalarText(item['include-scenario']) ?? '';
    const target = Object.hasOwn(this.scenarios, name) ? this.scenarios[name] : undefined;
    if (!isPlainMap(target)) {
      this.warn(
        at,
        item,
        'include-scenario',
        `There is no scenario named "${name}" to include; it is skipped`,
      );
    } else if (stack.includes(name) || stack.length > MAX_INCLUDE_DEPTH) {
      this.warn(
        at,
        item,
        'include-scenario',
        `Including "${name}" here would include it inside itself (${[...stack, name].join(' → ')}); it is skipped`,
      );
    } else {
      this.readScenario(target, `scenarios${pathKey(name)}`, scope, [...stack, name], false);
    }
  }

  // ---- one request ----

  private readRequest(request: PlainMap, at: string, holder: object, index: number, scope: Scope): void {
    const rawUrl = scalarText(request.url);
    if (rawUrl === undefined || rawUrl.trim() === '') {
      this.warn(at, holder, index, 'This request has no URL; it is skipped');
      return;
    }
    const url = this.resolveUrl(
      this.template(rawUrl.trim(), `${at}.url`, request, 'url'),
      scope,
      at,
      request,
    );
    if (url === undefined) return;
    const methodText = (scalarText(request.method) ?? FUNCTIONAL_DEFAULTS.method).trim().toUpperCase();
    if (!(HTTP_METHODS as readonly string[]).includes(methodText)) {
      this.warn(
        `${at}.method`,
        request,
        'method',
        `The method ${methodText} is not one a functional test sends (${HTTP_METHODS.join(', ')}); this request is skipped`,
      );
      return;
    }
    const method = methodText as HttpMethod;
    for (const key of Object.keys(request)) {
      if (REQUEST_KEYS.has(key) || BROWSER_SETTINGS.has(key)) continue;
      this.unsupportedRequestKey(request, key, at);
    }
    if (request['body-file'] !== undefined || request['upload-files'] !== undefined) {
      const file = scalarText(request['body-file']);
      if (request['upload-files'] !== undefined) {
        this.warn(
          `${at}.upload-files`,
          request,
          'upload-files',
          'This request uploads files, which a functional test cannot send; it is skipped',
        );
        return;
      }
      if (file === undefined || !Object.hasOwn(this.files, file)) {
        this.warn(
          `${at}.body-file`,
          request,
          'body-file',
          `This request sends the file ${file ?? ''} as its body; without that file it is skipped`,
        );
        return;
      }
    }
    const headers = mergeHeaders(
      scope.headers,
      this.headers(request.headers, `${at}.headers`, request, 'headers'),
    );
    const params: { name: string; value: string }[] = [];
    let body = '';
    const bodyFile = scalarText(request['body-file']);
    if (bodyFile !== undefined)
      body = this.template(this.files[bodyFile] ?? '', `${at}.body-file`, request, 'body-file');
    else if (request.body !== undefined && request.body !== null) {
      body = this.body(request.body, method, headers, params, `${at}.body`, request);
    }
    const think = request['think-time'];
    if (think !== undefined) {
      const ms = durationMs(think);
      if (ms !== (this.thinkTimeMs ?? 0)) {
        this.warn(
          `${at}.think-time`,
          request,
          'think-time',
          `This request's think-time (${scalarText(think) ?? ''}) is skipped: the test pauses the same think time before every call`,
        );
      }
    }
    const own = this.timeout(request, at);
    const timeoutMs = own ?? scope.timeoutMs;
    // A rounded timeout is warned where it is written: the request's own, or its scenario's once.
    const timeoutAt = own !== undefined ? { path: `${at}.timeout`, container: request } : scope.timeoutAt;
    const validations = [
      ...(request.assert === undefined
        ? []
        : readAssert(request.assert, `${at}.assert`, request, 'assert', this.check)),
      ...(request['assert-jsonpath'] === undefined
        ? []
        : readAssertJsonPath(
            request['assert-jsonpath'],
            `${at}.assert-jsonpath`,
            request,
            'assert-jsonpath',
            this.check,
          )),
      ...(request['assert-xpath'] === undefined
        ? []
        : readAssertXPath(
            request['assert-xpath'],
            `${at}.assert-xpath`,
            request,
            'assert-xpath',
            this.check,
          )),
    ];
    const captures = (['extract-jsonpath', 'extract-regexp', 'extract-boundary'] as const).flatMap((kind) =>
      request[kind] === undefined
        ? []
        : readExtractors(kind, request[kind], `${at}${pathKey(kind)}`, request, kind, this.check),
    );
    const label = scalarText(request.label)?.trim();
    const api: TaurusApi = {
      name: oneLineText(label || `${method} ${url}`),
      url,
      method,
      headers,
      body,
      params,
      ...(timeoutMs === undefined ? {} : { timeout: this.timeoutSeconds(timeoutMs, timeoutAt) }),
      validations,
      captures,
      source: { path: at, ...lineOf(this.lines, holder, index) },
    };
    const checked = ApiDefinitionSchema.safeParse(api);
    if (!checked.success) {
      const reason = checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      this.warn(at, holder, index, `This request is skipped: ${reason}`);
      return;
    }
    this.apis.push(api);
  }

  private unsupportedRequestKey(request: PlainMap, key: string, at: string): void {
    const path = `${at}${pathKey(key)}`;
    const messages: Record<string, string> = {
      'extract-xpath': 'An XPath extraction is skipped: a capture reads a JSON path, a regex or a header',
      'extract-css-jquery':
        'A CSS/jQuery extraction is skipped: a capture reads a JSON path, a regex or a header',
      jsr223: 'A JSR223 script runs code inside JMeter; it is skipped',
      'body-file': '',
      'upload-files': '',
    };
    const message = Object.hasOwn(messages, key)
      ? (messages[key] ?? '')
      : `${key} is not a request setting a functional test can use; it is skipped`;
    if (message !== '') this.warn(path, request, key, message);
  }

  private resolveUrl(url: string, scope: Scope, at: string, request: PlainMap): string | undefined {
    if (/^https?:\/\//i.test(url) || url.startsWith('{{')) return url;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
      this.warn(
        `${at}.url`,
        request,
        'url',
        `${url} is not an http:// or https:// URL; this request is skipped`,
      );
      return undefined;
    }
    if (scope.defaultAddress === undefined) {
      this.warn(
        `${at}.url`,
        request,
        'url',
        `${url} has no scheme and host, and the scenario sets no default-address; this request is skipped`,
      );
      return undefined;
    }
    const base = scope.defaultAddress.replace(/\/+$/, '');
    return `${base}${url.startsWith('/') ? '' : '/'}${url}`;
  }

  private defaultAddress(scenario: PlainMap, path: string): string | undefined {
    const raw = scalarText(scenario['default-address'])?.trim();
    if (raw === undefined || raw === '') return undefined;
    const text = this.template(raw, `${path}.default-address`, scenario, 'default-address');
    // Taurus reads an address without a scheme as http.
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.startsWith('{{') ? text : `http://${text}`;
  }

  private timeout(holder: PlainMap, path: string): number | undefined {
    if (holder.timeout === undefined || holder.timeout === null) return undefined;
    const ms = durationMs(holder.timeout);
    if (ms === undefined)
      this.warn(
        `${path}.timeout`,
        holder,
        'timeout',
        `timeout "${scalarText(holder.timeout) ?? ''}" is not a duration; it is skipped`,
      );
    return ms;
  }

  private timeoutSeconds(ms: number, at: { path: string; container: PlainMap } | undefined): number {
    const seconds = Math.ceil(ms / 1000);
    const fitted = Math.min(FUNCTIONAL_BOUNDS.timeout.max, Math.max(FUNCTIONAL_BOUNDS.timeout.min, seconds));
    if (fitted * 1000 !== ms && at !== undefined) {
      this.warn(
        at.path,
        at.container,
        'timeout',
        `The timeout of ${ms} ms is ${fitted} s here: a functional test waits whole seconds from ${FUNCTIONAL_BOUNDS.timeout.min} to ${FUNCTIONAL_BOUNDS.timeout.max}`,
      );
    }
    return fitted;
  }

  private headers(raw: Plain | undefined, path: string, holder: object, key: string): Record<string, string> {
    const out: Record<string, string> = {};
    if (raw === undefined || raw === null) return out;
    if (!isPlainMap(raw)) {
      this.warn(path, holder, key, 'headers must map names to values; they are skipped');
      return out;
    }
    for (const [name, value] of Object.entries(raw)) {
      const text = scalarText(value);
      if (text === undefined || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
        this.warn(
          `${path}${pathKey(name)}`,
          raw,
          name,
          `The header ${name} is skipped: ${text === undefined ? 'its value is not text' : 'its name is not a header name'}`,
        );
        continue;
      }
      out[name] = this.template(text, `${path}${pathKey(name)}`, raw, name);
    }
    return out;
  }

  /**
   * A body as Taurus sends it (bzt/jmx/http.py): text as written; a map or list as JSON when the
   * Content-Type is application/json; otherwise a map is form fields — the body, form-encoded, for
   * POST, PUT and PATCH, and query parameters for the other methods.
   */
  private body(
    raw: Plain,
    method: HttpMethod,
    headers: Record<string, string>,
    params: { name: string; value: string }[],
    path: string,
    request: PlainMap,
  ): string {
    if (!isPlainMap(raw) && !Array.isArray(raw)) {
      return this.template(scalarText(raw) ?? '', path, request, 'body');
    }
    const contentType = headerValue(headers, 'content-type')?.trim().toLowerCase();
    if (contentType === 'application/json') return JSON.stringify(this.templateTree(raw, path, request));
    if (Array.isArray(raw)) {
      this.warn(
        path,
        request,
        'body',
        'A list body is sent only as JSON (with Content-Type: application/json); it is skipped',
      );
      return '';
    }
    const fields = Object.entries(raw).map(([name, value]) => ({
      name,
      value: this.template(
        typeof value === 'object' && value !== null ? JSON.stringify(value) : (scalarText(value) ?? ''),
        `${path}${pathKey(name)}`,
        raw,
        name,
      ),
    }));
    if (!(BODY_METHODS as readonly string[]).includes(method)) {
      params.push(...fields);
      return '';
    }
    if (headerValue(headers, 'content-type') === undefined)
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    return fields.map((f) => `${formEncode(f.name)}=${formEncode(f.value)}`).join('&');
  }

  private templateTree(value: Plain, path: string, holder: object): Plain {
    if (typeof value === 'string') return this.template(value, path, holder, 'body');
    if (Array.isArray(value)) return value.map((item) => this.templateTree(item, path, holder));
    if (isPlainMap(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, this.templateTree(v, path, holder)]),
      );
    }
    return value;
  }

  // ---- text ----

  /** JMeter text → the model's template text, with the script's fixed variables put in. */
  private template(text: string, path: string, container: object, key: string | number): string {
    const converted = jmeterToTemplate(text);
    for (const call of converted.unsupported) {
      this.warn(
        path,
        container,
        key,
        `${call} is a JMeter function or property that cannot be evaluated here; it is sent as written`,
      );
    }
    return this.putVariables(converted.text);
  }

  private putVariables(text: string): string {
    if (!text.includes('{{')) return text;
    return text.replace(/\{\{([A-Za-z_][A-Za-z0-9_.-]*)\}\}/g, (whole, name: string) =>
      Object.hasOwn(this.variables, name) && !this.setWhileRunning.has(name)
        ? (this.variables[name] ?? whole)
        : whole,
    );
  }

  private warn(
    path: string,
    container: object,
    key: string | number,
    message: string,
    effect: TaurusWarningEffect = 'skipped',
  ): void {
    this.warnings.push({ path, ...lineOf(this.lines, container, key), message, effect });
  }
}

// eslint-disable-next-line no-control-regex -- control characters are what is removed
const CONTROL_OR_SPACE = /[\u0000-\u001f\u007f-\u009f\s]+/g;

/** A name as one line of at most 200 characters: control characters and runs of space become one space. */
function oneLineText(text: string): string {
  return text.replace(CONTROL_OR_SPACE, ' ').trim().slice(0, 200).trim();
}

/** A scenario included several times warns once per construct. */
function uniqueWarnings(warnings: TaurusWarning[]): TaurusWarning[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = `${w.path}\u0000${w.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function emptyScope(): Scope {
  return { headers: {}, defaultAddress: undefined, timeoutMs: undefined, timeoutAt: undefined };
}

/** Request headers over scenario headers, names compared without case (JMeter's header managers). */
function mergeHeaders(
  scenario: Record<string, string>,
  request: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(scenario)) {
    if (!Object.keys(request).some((n) => n.toLowerCase() === name.toLowerCase())) out[name] = value;
  }
  return { ...out, ...request };
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((n) => n.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** Form-encodes text but keeps {{name}} templates whole, so the runner can fill them. */
function formEncode(text: string): string {
  return text
    .split(/(\{\{[A-Za-z_][A-Za-z0-9_.-]*\}\})/)
    .map((part, i) => (i % 2 === 1 ? part : encodeURIComponent(part).replace(/%20/g, '+')))
    .join('');
}

/** Calls `visit` for every request map inside a requests list, blocks included. */
function walkRequests(list: Plain | undefined, depth: number, visit: (item: PlainMap) => void): void {
  if (!Array.isArray(list) || depth > MAX_INCLUDE_DEPTH) return;
  for (const item of list) {
    if (!isPlainMap(item)) continue;
    visit(item);
    for (const key of ['then', 'else', 'do']) walkRequests(item[key], depth + 1, visit);
  }
}

/** Requests inside a block, for its warning. */
function countRequests(block: PlainMap): number {
  let count = 0;
  walkRequests([block], 0, (item) => {
    if (item.url !== undefined) count++;
  });
  for (const key of ['then', 'else', 'do']) {
    const list = block[key];
    if (Array.isArray(list)) count += list.filter((item) => typeof item === 'string').length;
  }
  return count;
}
