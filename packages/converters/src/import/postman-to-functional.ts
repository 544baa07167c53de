import {
  type ApiDefinitionInput,
  type EventScripts,
  FUNCTIONAL_BOUNDS,
  type FunctionalPlanInput,
  type PlanVariable,
  POSTMAN_LIMITS,
  type ScriptBlock,
} from '@aqa/plan';
import { ImportError, type ImportResult, type ImportWarning } from './import-model';
import { stepToFunctionalApi } from './plan-to-functional';
import { readPostmanDataFile, readPostmanEnvironment } from './postman-files';
import { readTestScript, type TestScriptReading } from './postman-tests';
import { type PostmanScript, readPostmanCollection } from './postman-to-plan';
import { type ImportSource, sourceName } from './read-document';

/*
 * A Postman collection (with its environment, globals and data file) as a functional plan ready to save
 * (docs/adr/0029-postman-collections.md): tests that map become named rules and captures, the rest run
 * as the scripts they are, {{variables}} are kept for the run to resolve, folders become groups, and the
 * plan runs with a cookie jar and follows redirects, as Newman does.
 */

/** A test of the collection that cannot run here: where it is and why. */
export interface LeftOutTest {
  /** "collection", "folder Orders", or the request as "Folder / Request". */
  request: string;
  /** Its line in its script (1-based). */
  line: number;
  reason: string;
}

/** How the collection's tests were carried: every test is counted once, where its script is. */
export interface PostmanTestCounts {
  tests: number;
  /** Tests that became rules. */
  rules: number;
  /** Tests that run in a script kept as it is. */
  scripts: number;
  left_out: LeftOutTest[];
}

/** An API's rules and captures at most (ApiDefinitionSchema). */
const MAX_RULES = 100;
const MAX_CAPTURES = 50;
/** An API's description at most (ApiDefinitionSchema). */
const MAX_DESCRIPTION = 2000;

export interface PostmanPlanOptions {
  environment?: ImportSource | undefined;
  globals?: ImportSource | undefined;
  /** A data file (CSV or a JSON array of objects): one iteration per row. */
  data?: ImportSource | undefined;
  /** The plan's test_type ("api" or "functional"). */
  testType?: 'api' | 'functional' | undefined;
}

export interface PostmanPlan {
  plan: FunctionalPlanInput;
  postman: PostmanTestCounts;
  /** The collection's import (its steps with {{variables}} kept, warnings, info). */
  result: ImportResult;
  warnings: ImportWarning[];
}

export function postmanToFunctionalPlan(source: ImportSource, options: PostmanPlanOptions = {}): PostmanPlan {
  const reading = readPostmanCollection(source);
  const { result } = reading;
  const warnings = [...result.warnings];
  const counts: PostmanTestCounts = { tests: 0, rules: 0, scripts: 0, left_out: [] };

  const carry = (script: PostmanScript, where: string): TestScriptReading => {
    const read = readTestScript(script.source, script.listen);
    if (read.kind === 'empty') return read;
    counts.tests += read.tests.length;
    if (read.kind === 'rules') counts.rules += read.tests.length;
    else if (read.kind === 'script') counts.scripts += read.tests.length;
    else {
      const owner = script.origin === 'request' ? where : script.origin;
      for (const test of read.tests)
        counts.left_out.push({ request: owner, line: test.line, reason: read.reason });
      if (read.tests.length === 0)
        warnings.push({
          location: owner,
          message: `The ${script.listen} script is left out: ${read.reason}`,
        });
    }
    return read;
  };

  // A collection's or folder's script is read once, and what it becomes goes to every API it runs for.
  const readings = new Map<PostmanScript, TestScriptReading>();
  const readOnce = (script: PostmanScript, where: string): TestScriptReading => {
    let read = readings.get(script);
    if (read === undefined) {
      read = carry(script, where);
      readings.set(script, read);
    }
    return read;
  };

  const planScripts: EventScripts = { prerequest: [], test: [] };
  const collectionRules: Mapped = { rules: [], captures: [] };
  for (const script of reading.collectionScripts) {
    const read = readOnce(script, 'collection');
    if (read.kind === 'rules') addRules(collectionRules, read);
    else if (read.kind === 'script') planScripts[script.listen].push(block(script));
  }

  const apis: ApiDefinitionInput[] = result.steps.map((step, index) => {
    const source = result.sources[index];
    const location = source?.location ?? step.name ?? `request ${index + 1}`;
    const api = stepToFunctionalApi(step, source, location, warnings);
    const extra = reading.extras[index] ?? { folders: [], scripts: [] };
    const scripts: EventScripts = { prerequest: [], test: [] };
    const mapped = { rules: [...collectionRules.rules], captures: [...collectionRules.captures] };
    for (const script of extra.scripts) {
      const read = readOnce(script, location);
      if (read.kind === 'rules') addRules(mapped, read);
      else if (read.kind === 'script') scripts[script.listen].push(block(script));
    }
    for (const event of ['prerequest', 'test'] as const) {
      if (scripts[event].length > POSTMAN_LIMITS.scriptBlocks) {
        warnings.push({
          location,
          message: `Only the first ${POSTMAN_LIMITS.scriptBlocks} of its ${scripts[event].length} ${event} scripts are kept`,
        });
        scripts[event].length = POSTMAN_LIMITS.scriptBlocks;
      }
    }
    const validations = [...(api.validations ?? []), ...mapped.rules];
    const captures = [...(api.captures ?? []), ...mapped.captures];
    for (const [list, max, what] of [
      [validations, MAX_RULES, 'rules'],
      [captures, MAX_CAPTURES, 'captures'],
    ] as const) {
      if (list.length > max) {
        warnings.push({ location, message: `Only the first ${max} of its ${list.length} ${what} are kept` });
        list.length = max;
      }
    }
    return {
      ...api,
      // A script reads it as `request.description`; the plan keeps at most MAX_DESCRIPTION characters.
      ...(extra.description ? { description: extra.description.slice(0, MAX_DESCRIPTION) } : {}),
      validations,
      ...(captures.length > 0 ? { captures } : {}),
      ...(extra.folders.length > 0 ? { group: extra.folders.join(' / ') } : {}),
      ...(scripts.prerequest.length > 0 || scripts.test.length > 0 ? { scripts } : {}),
    };
  });

  // A globals file given as the environment is read as the globals it is.
  const given = options.environment && readPostmanEnvironment(options.environment);
  const environment = given?.scope === 'environment' ? given.environment : undefined;
  const globals = options.globals
    ? readPostmanEnvironment(options.globals).environment
    : given?.scope === 'globals'
      ? given.environment
      : undefined;
  const data = options.data && readPostmanDataFile(options.data);
  const maxIterations = FUNCTIONAL_BOUNDS.iterations.max;
  if (data && data.rows.length > maxIterations)
    throw new ImportError(
      sourceName(options.data ?? {}),
      `the data file has ${data.rows.length} rows; a plan runs at most ${maxIterations} iterations`,
    );

  const variables: PlanVariable[] = reading.variables.slice(0, POSTMAN_LIMITS.variables);
  const plan: FunctionalPlanInput = {
    test_name: result.info.title.slice(0, 200),
    description: '',
    apis,
    concurrent_users: 1,
    iterations: data ? data.rows.length : FUNCTIONAL_BOUNDS.iterations.fallback,
    ramp_up_time: 0,
    think_time: 0,
    test_type: options.testType ?? 'api',
    source: 'url_input',
    cookie_jar: true,
    follow_redirects: true,
    // Newman judges a request by its tests only: one without tests passes once answered (ADR 0029 §3).
    default_status_rule: false,
    ...(variables.length > 0 ? { variables } : {}),
    ...(environment ? { environment } : {}),
    ...(globals ? { globals: globals.values } : {}),
    ...(planScripts.prerequest.length > 0 || planScripts.test.length > 0 ? { scripts: planScripts } : {}),
    ...(data ? { iteration_data: data.data } : {}),
  };
  return { plan, postman: counts, result, warnings };
}

type Mapped = Pick<Extract<TestScriptReading, { kind: 'rules' }>, 'rules' | 'captures'>;

function addRules(into: Mapped, read: Extract<TestScriptReading, { kind: 'rules' }>): void {
  into.rules.push(...read.rules);
  into.captures.push(...read.captures);
}

function block(script: PostmanScript): ScriptBlock {
  return { origin: script.origin, source: script.source };
}
