import { FUNCTIONAL_BOUNDS, FUNCTIONAL_DEFAULTS } from '@aqa/plan';
import { NOT_TAURUS_CONFIGURATION, TaurusScriptError, type TaurusWarning } from '../taurus-model';
import { pathKey, scalarText } from '../taurus-text';
import { type LineTable, type Plain, type PlainMap, isPlainMap, lineOf, readTaurusTree } from '../yaml-tree';
import { defaultExecutor, runsInBrowser } from '../script-framework';
import { readAction, template } from './selenium-actions';
import {
  type SeleniumExecution,
  type SeleniumPage,
  type SeleniumReadResult,
  SeleniumScriptError,
  type SeleniumStep,
  type UnknownSeleniumAction,
} from './selenium-model';

/*
 * A Taurus script of the selenium executor → pages with typed action steps, for the UI runner
 * (docs/reference/02-running.md §3 "Selenium-style scripts"). Pure and browser-safe: it shares the
 * Taurus reader's YAML tree (its line numbers and document merging) and warning shape. Every action it
 * cannot run is refused by name and line in one SeleniumScriptError, before anything runs.
 */

const SCENARIO_KEYS = new Set(['requests', 'variables', 'default-address']);
const REQUEST_KEYS = new Set(['url', 'label', 'actions', 'assert']);

/** Reads a Selenium-style Taurus script. Throws SeleniumScriptError or TaurusScriptError. */
export function readSeleniumScript(source: string): SeleniumReadResult {
  const tree = readTaurusTree(source);
  const root = tree.root;
  if (root === null) {
    throw new TaurusScriptError(NOT_TAURUS_CONFIGURATION);
  }
  return new SeleniumReader(tree.lines).read(root);
}

/**
 * The execution a read script runs with, on the server and in the script screen alike: one browser
 * runs the pages for the script's iterations, so there are no users to ramp up and no think time.
 */
export function seleniumExecution(
  read: Pick<SeleniumReadResult, 'test_name' | 'iterations'>,
): SeleniumExecution {
  return {
    test_name: read.test_name,
    concurrent_users: 1,
    iterations: read.iterations,
    ramp_up_time: 0,
    test_duration: FUNCTIONAL_DEFAULTS.test_duration,
    think_time: 0,
  };
}

class SeleniumReader {
  private readonly warnings: TaurusWarning[] = [];
  private readonly unknown: UnknownSeleniumAction[] = [];
  private readonly variables: Record<string, string> = {};

  constructor(private readonly lines: LineTable) {}

  read(root: PlainMap): SeleniumReadResult {
    const scenarios = isPlainMap(root.scenarios) ? root.scenarios : {};
    const raw = root.execution;
    const executions = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
    const pages: SeleniumPage[] = [];
    let testName = '';
    let iterations: number = FUNCTIONAL_BOUNDS.ui_iterations.fallback;
    executions.forEach((execution, i) => {
      const path = Array.isArray(raw) ? `execution[${i}]` : 'execution';
      if (!isPlainMap(execution)) return;
      const fallback = defaultExecutor(root);
      // Apiritif runs the same actions with test-mode: selenium; an execution without an executor runs
      // Taurus's default one (settings.default-executor, else jmeter).
      if (!runsInBrowser(execution, fallback)) {
        this.warn(
          `${path}.executor`,
          execution,
          execution.executor === undefined ? 'scenario' : 'executor',
          `This execution runs ${scalarText(execution.executor) ?? fallback}, not selenium; a UI test runs only the selenium executions, so it is skipped`,
        );
        return;
      }
      for (const key of Object.keys(execution)) {
        if (!['executor', 'scenario', 'iterations', 'test-mode'].includes(key)) {
          this.warn(
            `${path}${pathKey(key)}`,
            execution,
            key,
            `${key} is a load setting; a UI test runs one browser for its iterations, so it is skipped`,
          );
        }
      }
      const ref = execution.scenario;
      let scenario: Plain | undefined;
      let scenarioPath: string;
      let name: string;
      if (typeof ref === 'string' || typeof ref === 'number') {
        name = String(ref);
        scenario = Object.hasOwn(scenarios, name) ? scenarios[name] : undefined;
        scenarioPath = `scenarios${pathKey(name)}`;
      } else {
        scenario = ref;
        scenarioPath = `${path}.scenario`;
        name = `Scenario of ${path}`;
      }
      if (!isPlainMap(scenario)) {
        this.warn(
          `${path}.scenario`,
          execution,
          'scenario',
          'This execution names no scenario that exists; it is skipped',
        );
        return;
      }
      const before = pages.length;
      this.readRequests(scenario, scenarioPath, pages);
      if (pages.length > before && testName === '') {
        testName = name;
        iterations = this.iterations(execution, path);
      }
    });
    if (this.unknown.length > 0) {
      const list = this.unknown.map((u) => `${u.action} (line ${u.line ?? '?'})`).join(', ');
      throw new SeleniumScriptError(
        `This script has ${this.unknown.length} action(s) AnybodyQA cannot run: ${list}`,
        this.unknown,
        this.warnings,
      );
    }
    if (pages.length === 0) {
      throw new TaurusScriptError(
        'Nothing in this script runs in a browser: no selenium execution has a scenario with requests',
        this.warnings.map((w) => ({ ...w, effect: 'refused' as const })),
      );
    }
    return { test_name: testName, iterations, pages, variables: this.variables, warnings: this.warnings };
  }

  private readRequests(scenario: PlainMap, path: string, pages: SeleniumPage[]): void {
    const base = scalarText(scenario['default-address'])?.trim() ?? '';
    // A relative URL opens under the scenario's default-address (http:// when it has no scheme).
    const address = (url: string): string => {
      if (base === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(url) || url.startsWith('{{')) return url;
      const root = /^[a-z][a-z0-9+.-]*:\/\//i.test(base) ? base : `http://${base}`;
      return `${root.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
    };
    if (isPlainMap(scenario.variables)) {
      for (const [name, value] of Object.entries(scenario.variables)) {
        const text = scalarText(value);
        if (text !== undefined) this.variables[name] = template(text);
      }
    }
    for (const key of Object.keys(scenario)) {
      if (!SCENARIO_KEYS.has(key)) {
        this.warn(
          `${path}${pathKey(key)}`,
          scenario,
          key,
          key === 'browser'
            ? 'A UI test runs in Chromium, whatever browser the script names'
            : `${key} is not read for a UI test; it is skipped`,
        );
      }
    }
    const requests = scenario.requests;
    if (!Array.isArray(requests)) {
      this.warn(`${path}.requests`, scenario, 'requests', 'This scenario has no list of requests');
      return;
    }
    requests.forEach((request, i) => {
      const at = `${path}.requests[${i}]`;
      const source = { path: at, ...lineOf(this.lines, requests, i) };
      if (typeof request === 'string') {
        const url = address(template(request.trim()));
        pages.push({ name: url, url, actions: [], source });
        return;
      }
      if (!isPlainMap(request)) {
        this.warn(
          at,
          requests,
          i,
          'A request must be a URL or a map with url, label and actions; it is skipped',
        );
        return;
      }
      for (const key of Object.keys(request)) {
        if (!REQUEST_KEYS.has(key)) {
          this.warn(
            `${at}${pathKey(key)}`,
            request,
            key,
            `${key} is not read for a browser step; it is skipped`,
          );
        }
      }
      const urlText = scalarText(request.url)?.trim();
      const url = urlText === undefined || urlText === '' ? null : address(template(urlText));
      const label = scalarText(request.label)?.trim();
      const actions = this.readActions(request, at);
      pages.push({
        name: label || url || `Step ${pages.length + 1}`,
        url,
        actions: [...actions, ...this.readAssert(request, at)],
        source,
      });
    });
  }

  private readActions(request: PlainMap, at: string): SeleniumStep[] {
    const raw = request.actions;
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw)) {
      this.unknown.push({
        action: 'actions',
        path: `${at}.actions`,
        ...lineOf(this.lines, request, 'actions'),
        message: 'actions must be a list',
      });
      return [];
    }
    const steps: SeleniumStep[] = [];
    raw.forEach((item, j) => {
      const path = `${at}.actions[${j}]`;
      const read = readAction(item, { path, ...lineOf(this.lines, raw, j) });
      if ('step' in read) steps.push(read.step);
      else this.unknown.push({ ...read.problem, path, ...lineOf(this.lines, raw, j) });
    });
    return steps;
  }

  /** A request's `assert`: Taurus checks the browser's page source for each text. */
  private readAssert(request: PlainMap, at: string): SeleniumStep[] {
    const raw = request.assert;
    if (raw === undefined || raw === null) return [];
    const list = Array.isArray(raw) ? raw : [raw];
    const steps: SeleniumStep[] = [];
    list.forEach((item, j) => {
      const path = Array.isArray(raw) ? `${at}.assert[${j}]` : `${at}.assert`;
      const line = Array.isArray(raw) ? lineOf(this.lines, raw, j) : lineOf(this.lines, request, 'assert');
      const source = { path, ...line, action: 'assert' };
      const spec = isPlainMap(item) ? item : { contains: [item] };
      const subject = scalarText(spec.subject) ?? 'body';
      const contains = Array.isArray(spec.contains) ? spec.contains : [spec.contains ?? null];
      if (subject !== 'body') {
        this.warn(
          path,
          Array.isArray(raw) ? raw : request,
          Array.isArray(raw) ? j : 'assert',
          `A browser step checks only the page (subject body), not ${subject}; it is skipped`,
        );
        return;
      }
      for (const entry of contains) {
        const text = scalarText(entry);
        if (text === undefined || text === '') continue;
        steps.push({
          kind: 'assertPage',
          text: template(text),
          // Taurus reads each pattern as a regular expression unless regexp is false.
          regexp: spec.regexp !== false,
          not: spec.not === true,
          source,
        });
      }
    });
    return steps;
  }

  private iterations(execution: PlainMap, path: string): number {
    const bounds = FUNCTIONAL_BOUNDS.ui_iterations;
    const raw = execution.iterations;
    if (raw === undefined || raw === null) return bounds.fallback;
    const n = Number(scalarText(raw));
    if (!Number.isFinite(n)) {
      this.warn(
        `${path}.iterations`,
        execution,
        'iterations',
        `iterations is not a number; ${bounds.fallback} is used`,
      );
      return bounds.fallback;
    }
    const fitted = Math.min(bounds.max, Math.max(bounds.min, Math.ceil(n)));
    if (fitted !== n) {
      this.warn(
        `${path}.iterations`,
        execution,
        'iterations',
        `A UI test runs ${bounds.min} to ${bounds.max} iterations; ${n} is ${fitted} here`,
      );
    }
    return fitted;
  }

  private warn(path: string, container: object, key: string | number, message: string): void {
    this.warnings.push({ path, ...lineOf(this.lines, container, key), message, effect: 'skipped' });
  }
}
