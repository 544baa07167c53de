import {
  FunctionalPlanSchema,
  type TEST_FRAMEWORKS,
  type FunctionalPlan,
  type FunctionalPlanInput,
  type FunctionalValidationType,
  type HttpMethod,
} from '@aqa/plan';
import { taurusScriptFramework } from '@aqa/converters';
import {
  formOfPlan,
  functionalFormReducer,
  newFunctionalForm,
  planBodyOf,
  ruleFields,
  type FunctionalForm,
  type RuleForm,
  type SettingField,
} from '../../editor/model/functional-form';
import type { ScriptExecution } from './script-read';
import { newId } from '@/features/call-editor';

/**
 * The script screen's state (docs/reference/02-running.md §2 "Functional Script Input screen", §3
 * "Functional test plan"): the plan settings (the URL screen's form, without APIs), the Taurus script
 * text, and the Global Validation Rules. An API's own Add Validation adds a plan rule that names the API
 * (api_name, url, method, as §3 "Validation" has them on the script page); the runner applies a rule
 * with an api_name to that API only and one without to every API, so the rules round-trip through save
 * and load without touching the script.
 */

export interface ScriptRuleForm extends RuleForm {
  api_name?: string;
  url?: string;
  method?: HttpMethod;
}

/** Taurus (API calls) or Selenium (browser steps): how the script is read and run. */
export type ScriptFramework = (typeof TEST_FRAMEWORKS)[number];

export interface ScriptForm {
  settings: FunctionalForm;
  framework: ScriptFramework;
  script: string;
  rules: ScriptRuleForm[];
  /** The CSV files the script's data-sources name, by that name (the plan's data_files). */
  dataFiles: Record<string, string>;
}

export function newScriptForm(): ScriptForm {
  return { settings: newFunctionalForm(), framework: 'taurus', script: '', rules: [], dataFiles: {} };
}

export interface RuleTarget {
  api_name: string;
  url: string;
  method: HttpMethod;
}

export type ScriptFormAction =
  | { type: 'load'; form: ScriptForm }
  | { type: 'setSetting'; field: SettingField; value: string }
  | { type: 'setFramework'; framework: ScriptFramework }
  | { type: 'setScript'; script: string }
  /** A parsed script's execution settings fill the form (its name only when the form has none). */
  | { type: 'applyExecution'; execution: ScriptExecution }
  | {
      type: 'addRule';
      target: RuleTarget | null;
      rule: { type: FunctionalValidationType; expected_value: string; description: string };
    }
  | { type: 'setDataFile'; name: string; text: string | null }
  | { type: 'toggleRule'; ruleId: string; enabled: boolean }
  | { type: 'removeRule'; ruleId: string }
  /** Deleting an API removes all its validations (§2's confirmation). */
  | { type: 'removeRulesOf'; apiName: string };

/**
 * After a delete, each API's rules named by number are numbered by their place among that API's rules
 * again, so they never read "Validation 1, Validation 3" (issue 24); other names are kept.
 */
function renumberedByApi(rules: readonly ScriptRuleForm[]): ScriptRuleForm[] {
  const seen = new Map<string, number>();
  return rules.map((rule) => {
    const key = rule.api_name ?? '';
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return /^Validation \d+$/.test(rule.name) && rule.name !== `Validation ${n}`
      ? { ...rule, name: `Validation ${n}` }
      : rule;
  });
}

function ruleName(rules: readonly ScriptRuleForm[], target: RuleTarget | null): string {
  const own = rules.filter((rule) => (rule.api_name ?? '') === (target?.api_name ?? ''));
  const taken = new Set(own.map((rule) => rule.name));
  let n = own.length + 1;
  while (taken.has(`Validation ${n}`)) n += 1;
  return `Validation ${n}`;
}

export function scriptFormReducer(form: ScriptForm, action: ScriptFormAction): ScriptForm {
  switch (action.type) {
    case 'load':
      return action.form;
    case 'setSetting':
      return { ...form, settings: functionalFormReducer(form.settings, action) };
    case 'setFramework':
      return { ...form, framework: action.framework };
    case 'setScript':
      // A script whose every execution runs in a browser is a UI test's, as the server reads and runs
      // it (docs/reference/02-running.md §3 "Selenium-style scripts"): the screen follows.
      return {
        ...form,
        script: action.script,
        framework:
          form.framework === 'taurus' && taurusScriptFramework(action.script) === 'selenium'
            ? 'selenium'
            : form.framework,
      };
    case 'applyExecution': {
      const { execution } = action;
      return {
        ...form,
        settings: {
          ...form.settings,
          testName: form.settings.testName.trim() ? form.settings.testName : execution.test_name,
          concurrentUsers: String(execution.concurrent_users),
          iterations: String(execution.iterations),
          rampUp: String(execution.ramp_up_time),
          duration: String(execution.test_duration),
          thinkTime: String(execution.think_time),
        },
      };
    }
    case 'addRule':
      // docs/reference/02-running.md §5: a rule is added only with an expected value.
      if (action.rule.expected_value.trim() === '') return form;
      return {
        ...form,
        rules: [
          ...form.rules,
          {
            id: newId('rule'),
            name: ruleName(form.rules, action.target),
            type: action.rule.type,
            expected_value: action.rule.expected_value,
            description: action.rule.description.trim(),
            enabled: true,
            ...(action.target ?? {}),
          },
        ],
      };
    case 'setDataFile': {
      const { [action.name]: _dropped, ...rest } = form.dataFiles;
      return { ...form, dataFiles: action.text === null ? rest : { ...rest, [action.name]: action.text } };
    }
    case 'toggleRule':
      return {
        ...form,
        rules: form.rules.map((rule) =>
          rule.id === action.ruleId ? { ...rule, enabled: action.enabled } : rule,
        ),
      };
    case 'removeRule':
      return { ...form, rules: renumberedByApi(form.rules.filter((rule) => rule.id !== action.ruleId)) };
    case 'removeRulesOf':
      return { ...form, rules: form.rules.filter((rule) => rule.api_name !== action.apiName) };
  }
}

/** The API a rule names (docs/reference/02-running.md §3), without the keys it leaves blank. */
function targetOf(rule: Partial<RuleTarget>): Partial<RuleTarget> {
  return {
    ...(rule.api_name ? { api_name: rule.api_name } : {}),
    ...(rule.url ? { url: rule.url } : {}),
    ...(rule.method ? { method: rule.method } : {}),
  };
}

/** The rules of one API (target) or the global ones (null). */
export function rulesOf(form: ScriptForm, apiName: string | null): ScriptRuleForm[] {
  return form.rules.filter((rule) => (apiName === null ? !rule.api_name : rule.api_name === apiName));
}

/**
 * The plan the script screen saves and runs (docs/reference/02-running.md §7): source script_input,
 * source_page functional-script-input, the framework, the script and the rules with their ids as
 * strings. The APIs are the script's: the server reads them from script_content. A Selenium script is a
 * UI test (test type ui, §3): its checks are its own assert actions, so it carries no plan rules or data
 * files (the form keeps them, should the user switch back to Taurus).
 */
function scriptPlanBody(form: ScriptForm): FunctionalPlanInput {
  const taurus = form.framework === 'taurus';
  return {
    ...planBodyOf(form.settings),
    apis: [],
    test_type: taurus ? 'functional' : 'ui',
    source: 'script_input',
    source_page: 'functional-script-input',
    test_framework: form.framework,
    script_content: form.script,
    ...(taurus && Object.keys(form.dataFiles).length > 0 ? { data_files: form.dataFiles } : {}),
    validations: (taurus ? form.rules : []).map((rule) => ({
      id: String(rule.id),
      ...ruleFields(rule),
      ...targetOf(rule),
    })),
  };
}

export interface ScriptProblem {
  field: string;
  message: string;
}

export type ScriptCheck =
  | { ok: true; body: FunctionalPlanInput; problems: [] }
  | { ok: false; body: FunctionalPlanInput; problems: ScriptProblem[] };

/**
 * The one schema judges the plan (docs/design.md §9); its problems in the screen's order: the test name,
 * then the script ('Test name is required', 'Script content is required', docs/reference/02-running.md §5),
 * then the numbers and rules.
 */
export function checkScriptForm(form: ScriptForm): ScriptCheck {
  const body = scriptPlanBody(form);
  const parsed = FunctionalPlanSchema.safeParse(body);
  if (parsed.success) return { ok: true, body, problems: [] };
  const order = (field: string) => (field === 'test_name' ? 0 : field === 'script_content' ? 1 : 2);
  const problems = parsed.error.issues
    .map((issue) => ({ field: String(issue.path[0] ?? 'test_name'), message: issue.message }))
    .sort((a, b) => order(a.field) - order(b.field));
  return { ok: false, body, problems };
}

/** A saved script plan → the form. */
export function scriptFormOfPlan(plan: FunctionalPlan): ScriptForm {
  return {
    settings: { ...formOfPlan(plan), apis: [] },
    framework: plan.test_framework === 'selenium' ? 'selenium' : 'taurus',
    script: plan.script_content,
    dataFiles: { ...(plan.data_files ?? {}) },
    rules: plan.validations.map((rule) => ({
      id: rule.id ?? newId('rule'),
      ...ruleFields(rule),
      ...targetOf(rule),
    })),
  };
}
