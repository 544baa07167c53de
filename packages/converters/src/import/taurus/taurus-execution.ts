import { FUNCTIONAL_BOUNDS } from '@aqa/plan';
import type { CheckContext } from './checks';
import { runsInBrowser } from './script-framework';
import { durationMs, pathKey, scalarText } from './taurus-text';
import type { TaurusReadPurpose } from './taurus-model';
import { type PlainMap, isPlainMap } from './yaml-tree';

/*
 * A Taurus script's execution settings (docs/reference/02-running.md §3 "Taurus scripts"): which
 * executions the functional runner can run, the scenario each names, and the load each asks for, fitted
 * to the functional test's bounds. read-taurus.ts reads the scenarios they reach.
 */

/** Reports a construct that is skipped or changed, at `path` (the line is found from container and key). */
export type Warn = CheckContext['warn'];

/** Executors whose `requests` are plain HTTP calls, as the functional runner sends them. */
const RUNNABLE_EXECUTORS = new Set(['jmeter', 'apiritif']);
const EXECUTION_KEYS = new Set(['executor', 'scenario', 'concurrency', 'iterations', 'ramp-up', 'hold-for']);
/** What a performance plan reads of an execution besides those (taurus-load-profile.ts). */
const PERFORMANCE_KEYS = new Set([...EXECUTION_KEYS, 'throughput', 'steps']);

export type { TaurusReadPurpose };

/** An execution as written, at its YAML path. */
export interface Execution {
  execution: PlainMap;
  path: string;
}

/** A runnable execution with its scenario, the scenario's YAML path and its name (the test's name). */
export interface RunnableExecution extends Execution {
  scenario: PlainMap;
  scenarioPath: string;
  name: string;
}

/** An execution's load: `key` compares two executions' loads, `words` say it to a person. */
export interface Load {
  users: number;
  iterations: number;
  rampUpS: number;
  durationMin: number;
  key: string;
  words: string;
}

/** The script's executions (one map or a list of them); what is not a map is reported and skipped. */
export function readExecutions(root: PlainMap, warn: Warn): Execution[] {
  const raw = root.execution;
  if (raw === undefined || raw === null) {
    warn(
      'execution',
      root,
      'execution',
      'The script has no execution, so nothing says which scenario to run',
    );
    return [];
  }
  const list = Array.isArray(raw) ? raw : [raw];
  const out: Execution[] = [];
  list.forEach((item, i) => {
    const path = Array.isArray(raw) ? `execution[${i}]` : 'execution';
    if (isPlainMap(item)) out.push({ execution: item, path });
    else
      warn(
        path,
        Array.isArray(raw) ? raw : root,
        Array.isArray(raw) ? i : 'execution',
        'An execution must be a map of settings; it is skipped',
      );
  });
  return out;
}

/**
 * The executions whose requests the functional runner can send (JMeter's and Apiritif's, not in a
 * browser), each with the scenario it names among `scenarios`; the others are reported and skipped.
 */
export function runnableExecutions(
  executions: Execution[],
  defaultExec: string,
  scenarios: PlainMap,
  warn: Warn,
  purpose: TaurusReadPurpose = 'functional',
): RunnableExecution[] {
  const known = purpose === 'performance' ? PERFORMANCE_KEYS : EXECUTION_KEYS;
  const out = [];
  for (const { execution, path } of executions) {
    const executor = scalarText(execution.executor) ?? defaultExec;
    if (runsInBrowser(execution, defaultExec)) {
      // docs/reference/02-running.md §3 "Selenium-style scripts": the UI runner's, not this reader's.
      warn(
        `${path}.executor`,
        execution,
        execution.executor === undefined ? 'scenario' : 'executor',
        `This execution runs ${executor === 'apiritif' ? 'Apiritif with test-mode selenium' : 'selenium'} in a browser, which a UI test does (a script whose every execution runs in a browser is read as one); an API test skips it`,
      );
      continue;
    }
    if (!RUNNABLE_EXECUTORS.has(executor)) {
      warn(
        `${path}.executor`,
        execution,
        execution.executor === undefined ? 'scenario' : 'executor',
        `This execution runs ${executor}, whose scripts AnybodyQA cannot run (it runs HTTP requests as Taurus's JMeter and Apiritif executors do); it is skipped`,
      );
      continue;
    }
    for (const key of Object.keys(execution)) {
      if (!known.has(key)) {
        warn(
          `${path}${pathKey(key)}`,
          execution,
          key,
          purpose === 'performance'
            ? `${key} is an execution setting a performance plan does not carry; it is skipped`
            : `${key} is a load-test setting a functional test does not use; it is skipped`,
        );
      }
    }
    const ref = execution.scenario;
    if (typeof ref === 'string' || typeof ref === 'number') {
      const name = String(ref);
      const scenario = Object.hasOwn(scenarios, name) ? scenarios[name] : undefined;
      if (!isPlainMap(scenario)) {
        warn(
          `${path}.scenario`,
          execution,
          'scenario',
          `There is no scenario named "${name}" under scenarios; this execution is skipped`,
        );
        continue;
      }
      out.push({ execution, path, scenario, scenarioPath: `scenarios${pathKey(name)}`, name });
    } else if (isPlainMap(ref)) {
      out.push({
        execution,
        path,
        scenario: ref,
        scenarioPath: `${path}.scenario`,
        name: `Scenario of ${path}`,
      });
    } else {
      warn(path, execution, 'scenario', 'This execution names no scenario; it is skipped');
    }
  }
  return out;
}

/** An execution's load (users, iterations, ramp-up, hold-for), fitted to the functional test's bounds. */
export function readLoad(execution: PlainMap, path: string, warn: Warn): Load {
  const number = (key: string, bounds: { min: number; max: number; fallback: number }, what: string) => {
    const raw = loadSetting(execution, key);
    if (raw === undefined || raw === null) return bounds.fallback;
    const n = typeof raw === 'number' ? raw : Number(scalarText(raw)?.trim() || Number.NaN);
    if (!Number.isFinite(n)) {
      warn(
        `${path}${pathKey(key)}`,
        execution,
        key,
        `${key} "${scalarText(raw) ?? ''}" is not a number; the ${what} is ${bounds.fallback}`,
      );
      return bounds.fallback;
    }
    return bounded(
      warn,
      Math.ceil(n),
      bounds,
      key,
      '',
      !Number.isInteger(n),
      `${path}${pathKey(key)}`,
      execution,
    );
  };
  const users = number('concurrency', FUNCTIONAL_BOUNDS.concurrent_users, 'number of users');
  const iterationsGiven = execution.iterations !== undefined && execution.iterations !== null;
  const iterations = number('iterations', FUNCTIONAL_BOUNDS.iterations, 'number of iterations');
  const time = (
    key: string,
    unitMs: number,
    bounds: { min: number; max: number; fallback: number },
    unit: string,
  ) => {
    const raw = execution[key];
    if (raw === undefined || raw === null) return bounds.fallback;
    const ms = durationMs(raw);
    if (ms === undefined) {
      warn(
        `${path}${pathKey(key)}`,
        execution,
        key,
        `${key} "${scalarText(raw) ?? ''}" is not a duration such as 90s or 1m30s; ${bounds.fallback} ${unit} is used`,
      );
      return bounds.fallback;
    }
    return bounded(
      warn,
      Math.ceil(ms / unitMs),
      bounds,
      key,
      unit,
      ms % unitMs !== 0,
      `${path}${pathKey(key)}`,
      execution,
    );
  };
  const rampUpS = time('ramp-up', 1000, FUNCTIONAL_BOUNDS.ramp_up_time, 'seconds');
  const durationMin = time('hold-for', 60_000, FUNCTIONAL_BOUNDS.test_duration, 'minutes');
  if (!iterationsGiven && execution['hold-for'] !== undefined) {
    warn(
      `${path}.hold-for`,
      execution,
      'hold-for',
      `Taurus repeats the scenario until hold-for ends; a functional test runs its iterations (here ${iterations}) within at most ${durationMin} minute(s), so the repeating is skipped`,
    );
  }
  const words = `${users} user(s), ${iterations} iteration(s), ramp-up ${rampUpS} s, ${durationMin} min`;
  return { users, iterations, rampUpS, durationMin, key: words, words };
}

/** An execution's setting as written; of a local/cloud pair (Taurus's cloud provisioning) the local one. */
export function loadSetting(execution: PlainMap, key: string): unknown {
  const written = execution[key];
  return isPlainMap(written) && written.local !== undefined ? written.local : written;
}

/** A value fitted to the model's bounds, with a warning when it changed. */
export function bounded(
  warn: Warn,
  value: number,
  bounds: { min: number; max: number },
  key: string,
  unit: string,
  rounded: boolean,
  path?: string,
  container?: object,
): number {
  const fitted = Math.min(bounds.max, Math.max(bounds.min, value));
  if ((rounded || fitted !== value) && path !== undefined && container !== undefined) {
    const why =
      fitted !== value
        ? `the functional test allows ${bounds.min} to ${bounds.max}`
        : 'it is rounded up to a whole number';
    warn(path, container, key, `${key} is ${fitted}${unit ? ` ${unit}` : ''} here: ${why}`);
  }
  return fitted;
}
