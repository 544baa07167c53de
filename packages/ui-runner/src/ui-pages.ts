import { readSeleniumScript } from '@aqa/converters';
import {
  FUNCTIONAL_BOUNDS,
  type FunctionalPlan,
  type FunctionalValidation,
  kindOf,
  type UiAction,
} from '@aqa/plan';

/*
 * What a UI plan opens (docs/design.md §9 "UI tests"): a UI URL plan's pages with their checks, or a
 * Selenium-style script's requests with their actions. The server reads them before a run starts, to
 * refuse an unreadable script and to ask the target guard about every URL written out.
 */

/** One page of a UI run: a URL step, or a script step with its actions. */
export interface UiPage {
  name: string;
  /** The navigation's method (a script's pages open with GET). */
  method: string;
  /** The URL opened first, or null for a script step that acts on the page the previous step left. */
  url: string | null;
  /** The navigation's body, sent with a method other than GET. */
  body: string;
  /** A URL step's enabled checks. */
  validations: FunctionalValidation[];
  /** A script step's actions, in order; empty for a URL step. */
  actions: UiAction[];
  /** Where a script writes the step. */
  line?: number;
}

export interface UiScript {
  pages: UiPage[];
  /** The script's variables, used as {{name}}; store actions add more while running. */
  variables: Record<string, string>;
}

/** A script plan (docs/test-kinds.md) in the Selenium vocabulary. */
function isSeleniumScriptPlan(plan: FunctionalPlan): boolean {
  return kindOf(plan) === 'script' && plan.test_framework === 'selenium';
}

/** The pages a UI plan will open. Throws SeleniumScriptError (or TaurusScriptError) for an unreadable script. */
export function uiPagesOf(plan: FunctionalPlan): UiPage[] {
  return readUiPlan(plan).pages;
}

/** The pages and starting variables of a UI plan. */
export function readUiPlan(plan: FunctionalPlan): UiScript {
  if (!isSeleniumScriptPlan(plan)) {
    return {
      pages: plan.apis.map((api) => ({
        name: api.name,
        method: api.method,
        // A step with actions and no URL acts on the page the step before left (ADR 0030 §1).
        url: api.url === '' && (api.actions?.length ?? 0) > 0 ? null : api.url,
        body: api.body,
        validations: api.validations.filter((v) => v.enabled),
        actions: api.actions ?? [],
      })),
      variables: {},
    };
  }
  const read = readSeleniumScript(plan.script_content);
  return {
    pages: read.pages.map((page) => ({
      name: page.name,
      method: 'GET',
      url: page.url,
      body: '',
      validations: [],
      actions: page.actions,
      ...(page.source.line === undefined ? {} : { line: page.source.line }),
    })),
    variables: { ...read.variables },
  };
}

/**
 * Every URL the pages write out in full (a step's URL and each `go`), for the target guard's preflight;
 * a URL built from a {{variable}} is checked when the run opens it.
 */
export function writtenUrls(pages: readonly UiPage[]): string[] {
  const urls = new Set<string>();
  const add = (url: string | null): void => {
    if (url !== null && !url.includes('{{')) urls.add(url);
  };
  for (const page of pages) {
    add(page.url);
    for (const action of page.actions) if (action.kind === 'go') add(action.url);
  }
  return [...urls];
}

/** The iterations a UI run makes: the plan's, within the UI bounds (1–10). */
export function uiIterations(plan: FunctionalPlan): number {
  const { min, max } = FUNCTIONAL_BOUNDS.ui_iterations;
  return Math.min(max, Math.max(min, plan.iterations));
}
