import type { TEST_FRAMEWORKS } from '@aqa/plan';
import { scalarText } from './taurus-text';
import { isPlainMap, readTaurusTree, type PlainMap } from './yaml-tree';

/*
 * Which reader a Taurus script is for (docs/reference/02-running.md §3 "Selenium-style scripts"): the
 * executor of its executions says it, as Taurus itself decides what runs a scenario.
 */

/** Taurus's executor for an execution that names none: settings.default-executor, else jmeter. */
export function defaultExecutor(root: PlainMap): string {
  const settings = root.settings;
  return (isPlainMap(settings) ? scalarText(settings['default-executor']) : undefined) ?? 'jmeter';
}

/** An execution the UI runner runs: the selenium executor, or Apiritif with test-mode selenium. */
export function runsInBrowser(execution: PlainMap, fallbackExecutor: string): boolean {
  const executor = scalarText(execution.executor) ?? fallbackExecutor;
  return (
    executor === 'selenium' || (executor === 'apiritif' && scalarText(execution['test-mode']) === 'selenium')
  );
}

/**
 * selenium when every execution of the script runs in a browser (so the API reader could run none of
 * it), taurus otherwise — also for text that is no Taurus script, which the Taurus reader then refuses
 * with its reasons.
 */
export function taurusScriptFramework(source: string): (typeof TEST_FRAMEWORKS)[number] {
  let root: PlainMap | null;
  try {
    root = readTaurusTree(source).root;
  } catch {
    return 'taurus';
  }
  if (root === null) return 'taurus';
  const raw = root.execution;
  const executions = (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw]).filter(
    isPlainMap,
  );
  const fallback = defaultExecutor(root);
  return executions.length > 0 && executions.every((e) => runsInBrowser(e, fallback)) ? 'selenium' : 'taurus';
}
