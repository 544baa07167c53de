import type { z } from 'zod';
import {
  FUNCTIONAL_PLAN_SCHEMA_VERSION,
  type FunctionalPlan,
  FunctionalPlanSchema,
} from './functional/functional-plan';
import { PLAN_SCHEMA_VERSION, PerfPlanSchema, type PerfPlan, withProfileTotals } from './perf-plan';

/**
 * Saved and imported plans come in older and looser shapes: the spec's client sends parameters as
 * {name,value}, "apikey", numbers as strings, and the id as id, _id or plan_id. migratePlan() brings any of
 * them to the current schema (in the manner of k6-studio's versioned generator schemas): one step per
 * schema version, then a full parse that reports every problem at once. A saved functional plan (an API,
 * script or UI test) is read by migrateFunctionalPlan() the same way, through its own chain: every
 * stored plan body and run configuration, and a plan file the CLI runs, is read through these.
 */

type Json = Record<string, unknown>;

/** A chain of steps: steps[v - first] turns a version-v plan into a version v+1 plan. */
interface Chain {
  current: number;
  /** The version of a plan that names none. */
  unversioned: number;
  first: number;
  steps: ReadonlyArray<(plan: Json) => Json>;
}

/** The load plan's chain: version 0 is the spec's own shapes. */
const MIGRATIONS: Chain = {
  current: PLAN_SCHEMA_VERSION,
  unversioned: 0,
  first: 0,
  steps: [fromUnversioned],
};

/**
 * Version 1 is the first a functional plan was saved with (and what one naming none is), so its chain
 * has no step yet: the next FUNCTIONAL_PLAN_SCHEMA_VERSION adds the step from 1.
 */
const FUNCTIONAL_MIGRATIONS: Chain = {
  current: FUNCTIONAL_PLAN_SCHEMA_VERSION,
  unversioned: 1,
  first: 1,
  steps: [],
};

export function migratePlan(input: unknown): PerfPlan {
  return withProfileTotals(PerfPlanSchema.parse(normalizePlan(input)));
}

export function safeMigratePlan(input: unknown): z.ZodSafeParseResult<PerfPlan> {
  const read = PerfPlanSchema.safeParse(normalizePlan(input));
  return read.success ? { ...read, data: withProfileTotals(read.data) } : read;
}

/** The input brought to the current version's shape, not yet validated. */
export function normalizePlan(input: unknown): unknown {
  return upgraded(input, MIGRATIONS);
}

/** A saved functional plan (a stored body, a run's configuration, a plan file) in the current schema. */
export function migrateFunctionalPlan(input: unknown): FunctionalPlan {
  return FunctionalPlanSchema.parse(upgraded(input, FUNCTIONAL_MIGRATIONS));
}

export function safeMigrateFunctionalPlan(input: unknown): z.ZodSafeParseResult<FunctionalPlan> {
  return FunctionalPlanSchema.safeParse(upgraded(input, FUNCTIONAL_MIGRATIONS));
}

function upgraded(input: unknown, chain: Chain): unknown {
  if (!isObject(input)) return input;
  let plan: Json = { ...input };
  const version = typeof plan.schema_version === 'number' ? plan.schema_version : chain.unversioned;
  for (let v = version; v < chain.current; v++) {
    const step = chain.steps[v - chain.first];
    if (step) plan = step(plan);
  }
  return plan;
}

/** Version 0: the spec's own shapes, as the original client and the Swagger/Postman parsers wrote them. */
function fromUnversioned(input: Json): Json {
  const plan: Json = { ...input, schema_version: 1 };
  const id = input.id ?? input._id ?? input.plan_id;
  if (typeof id === 'string' || typeof id === 'number') plan.id = String(id);
  delete plan._id;
  delete plan.plan_id;
  if (plan.name === undefined && typeof input.planName === 'string') plan.name = input.planName;
  delete plan.planName;
  if (Array.isArray(plan.urls)) plan.urls = plan.urls.map(urlEntryFromUnversioned);
  return plan;
}

function urlEntryFromUnversioned(input: unknown): unknown {
  if (!isObject(input)) return input;
  const entry: Json = { ...input };
  // Parsed APIs (docs/reference/01-authoring.md §3) name these auth and body.
  if (entry.authorization === undefined && entry.auth !== undefined) entry.authorization = entry.auth;
  delete entry.auth;
  if (entry.payload === undefined && typeof entry.body === 'string') entry.payload = entry.body;
  delete entry.body;
  if (typeof entry.method === 'string') entry.method = entry.method.toUpperCase();
  entry.parameters = pairs(entry.parameters, 'key');
  entry.headers = pairs(entry.headers, 'name');
  if (isObject(entry.authorization)) {
    const auth: Json = { ...entry.authorization };
    if (typeof auth.type === 'string' && auth.type.toLowerCase() === 'apikey') auth.type = 'api_key';
    entry.authorization = auth;
  }
  if (typeof entry.thinkTime === 'number') entry.thinkTime = String(entry.thinkTime);
  return entry;
}

/** [{name|key, value}] or {name: value} → [{<keyField>, value}], with values as text. */
function pairs(value: unknown, keyField: 'key' | 'name'): unknown {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value)
    ? value
    : isObject(value)
      ? Object.entries(value).map(([key, v]) => ({ [keyField]: key, value: v }))
      : value;
  if (!Array.isArray(list)) return list;
  return list.map((item: unknown) => {
    if (!isObject(item)) return item;
    const key = item[keyField] ?? item.key ?? item.name ?? '';
    const v = item.value ?? '';
    return { [keyField]: text(key), value: text(v) };
  });
}

function text(value: unknown): unknown {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A zod issue path as the plan's field name, e.g. ["urls", 2, "url"] → "urls[2].url". */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += (out ? '.' : '') + String(key);
  }
  return out;
}

/** Every problem of a failed parse as { field, message }, in the order zod found them. */
export function describeIssues(error: z.ZodError): { field: string; message: string }[] {
  return error.issues.map((issue) => ({ field: fieldPath(issue.path), message: issue.message }));
}
