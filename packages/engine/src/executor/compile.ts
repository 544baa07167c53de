import {
  DEFAULT_TIMEOUT_S,
  flowCycle,
  hasExtraction,
  planFlows,
  parseThinkTimeMs,
  perfAssertionRule,
  transactionRatePercent,
  type PerfPlan,
  type UrlEntry,
} from '@aqa/plan';
import {
  compileAssertion,
  compileExtraction,
  PlanCheckError,
  type CompiledAssertion,
  type CompiledExtraction,
} from './checks';
import { entryRequestParts, type OAuth2Spec } from '../call/request-parts';
import { Template, TemplateScope, type Renderable } from '../call/template';
import type { FlowInfo, StepInfo } from '../metrics/aggregate';

/** A plan step in the form the virtual users execute: everything parsed once, templates compiled. */
export interface CompiledStep {
  index: number;
  method: string;
  /** `scheme://host:port` when the URL's origin has no template; null when it must be rendered. */
  origin: string | null;
  /** Path and query (params appended) when `origin` is static; the full URL otherwise. */
  target: Template;
  /** Header names and values, including what the step's authorization adds. */
  headerNames: string[];
  headerValues: Renderable[];
  /** The flat [name, value, …] header list when no header has a template. */
  staticHeaders: string[] | null;
  body: Template | null;
  /** OAuth2 client-credentials settings; the token is fetched by the shard's OAuth2Tokens (call/oauth2-tokens.ts). */
  oauth2: OAuth2Spec | null;
  timeoutMs: number;
  /** Probability (0..1) that a user runs this step in an iteration. */
  rate: number;
  thinkMs: number;
  assertion: CompiledAssertion | null;
  extraction: CompiledExtraction | null;
  extractSlot: number;
  /** The response body must be kept (for the assertion or the extraction). */
  needsBody: boolean;
}

/** One flow of the plan (docs/adr/0027-load-profiles.md "3. Flows"): its calls in plan order. */
export interface CompiledFlow {
  /** "" for the one flow of a plan without flows. */
  name: string;
  weight: number;
  steps: CompiledStep[];
}

export interface CompiledPlan {
  steps: CompiledStep[];
  scope: TemplateScope;
  info: StepInfo[];
  /** Always at least one: a plan without flows is one flow of every step. */
  flows: CompiledFlow[];
  /**
   * The plan's flows only (empty without flows): what the result and the snapshots count per flow.
   */
  flowInfo: FlowInfo[];
  /**
   * The flow of run-wide iteration n is `flowCycle[n mod flowCycle.length]` (a smooth weighted round
   * robin, @aqa/plan flows.ts); null for a plan without flows, whose every iteration runs every step.
   */
  flowCycle: Uint16Array | null;
  users: number;
  durationMs: number;
}

/** Every problem that keeps a (schema-valid) plan from running, with where it is. */
export class PlanCompileError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'PlanCompileError';
  }
}

const ORIGIN_RE = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/i;

/**
 * Compiles a plan validated by PerfPlanSchema. `durationSeconds` overrides the plan's duration
 * (minutes). Throws PlanCompileError listing every problem at once.
 */
export function compilePlan(plan: PerfPlan, durationSeconds?: number): CompiledPlan {
  const scope = new TemplateScope();
  const problems: string[] = [];
  const steps: CompiledStep[] = [];
  const info: StepInfo[] = [];
  plan.urls.forEach((entry, index) => {
    try {
      const step = compileStep(entry, steps.length, `urls[${index}]`, scope, problems);
      if (step) {
        steps.push(step);
        info.push(stepInfo(entry, step));
      }
    } catch (e) {
      problems.push(e instanceof PlanCheckError ? e.message : `urls[${index}]: ${(e as Error).message}`);
    }
  });
  if (plan.urls.length === 0) problems.push('urls: the plan has no URL to request');
  const users = plan.concurrent_users;
  if (!(users >= 1)) problems.push('concurrent_users: must be at least 1');
  const durationMs = durationSeconds !== undefined ? durationSeconds * 1000 : plan.duration * 60_000;
  if (!(durationMs > 0)) problems.push('duration: must be more than 0');
  if (problems.length > 0) throw new PlanCompileError(problems);
  // The steps are the urls one for one here (every problem above throws), so a url index is a step's.
  const planned = planFlows(plan);
  const flows: CompiledFlow[] = planned.map((f) => ({
    name: f.name,
    weight: f.weight,
    steps: f.urls.map((i) => steps[i]!),
  }));
  // A plan without flows is one flow of every step: no cycle to follow, no per-flow figures.
  const hasFlows = plan.flows !== undefined;
  const flowInfo: FlowInfo[] = hasFlows
    ? planned.map((f) => ({ name: f.name, weight: f.weight, steps: f.urls }))
    : [];
  const cycle = hasFlows ? flowCycle(planned.map((f) => f.weight)) : null;
  return { steps, scope, info, flows, flowInfo, flowCycle: cycle, users, durationMs };
}

function stepInfo(entry: UrlEntry, step: CompiledStep): StepInfo {
  const url = entry.url.trim();
  const label = `${step.method} ${url}`;
  return { name: entry.name?.trim() || label, label, url, method: step.method };
}

function compileStep(
  entry: UrlEntry,
  index: number,
  where: string,
  scope: TemplateScope,
  problems: string[],
): CompiledStep | null {
  const method = entry.method;
  const rawUrl = entry.url.trim();
  const m = ORIGIN_RE.exec(rawUrl);
  const target = new Template();
  let origin: string | null = null;
  let pathText: string;
  if (m) {
    const originText = m[1]!;
    pathText = m[2]!;
    if (!originText.includes('{{')) {
      let parsed: URL;
      try {
        parsed = new URL(originText);
      } catch {
        problems.push(`${where}.url: ${JSON.stringify(rawUrl)} is not a valid URL`);
        return null;
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        problems.push(`${where}.url: only http and https are supported, not ${parsed.protocol}`);
        return null;
      }
      origin = parsed.origin;
    } else target.appendTemplate(originText, scope, false);
  } else if (rawUrl.startsWith('{{')) {
    // The whole URL comes from a variable: rendered and parsed per request.
    pathText = rawUrl;
  } else {
    problems.push(`${where}.url: ${JSON.stringify(rawUrl)} is not an absolute http(s) URL`);
    return null;
  }
  const hash = pathText.indexOf('#');
  if (hash >= 0) pathText = pathText.slice(0, hash);
  if (origin !== null && !pathText.startsWith('/')) pathText = `/${pathText}`;
  target.appendTemplate(pathText, scope, false);

  const { headers, body, oauth2 } = entryRequestParts(entry, target, pathText, scope);
  const { names: headerNames, values: headerValues } = headers;

  const timeoutS = Number.isFinite(entry.timeout) && entry.timeout > 0 ? entry.timeout : DEFAULT_TIMEOUT_S;
  const rate = Math.min(Math.max(transactionRatePercent(entry.transactionRate), 0), 100) / 100;
  let thinkMs = 0;
  try {
    thinkMs = parseThinkTimeMs(entry.thinkTime);
  } catch (e) {
    problems.push(`${where}.thinkTime: ${(e as Error).message}`);
  }

  // The entry's assertion as a rule of the one dialect (docs/call-core.md "A performance plan's assertion").
  const rule = perfAssertionRule(entry);
  const assertion: CompiledAssertion | null = rule === null ? null : compileAssertion(rule, where);
  let extraction: CompiledExtraction | null = null;
  let extractSlot = -1;
  if (hasExtraction(entry)) {
    extraction = compileExtraction({ type: entry.extractType, expression: entry.extractValue }, where);
    extractSlot = scope.variableSlot(entry.extractName.trim());
  }

  const staticHeaders = headerValues.every((v) => v.constant !== null)
    ? headerNames.flatMap((n, i) => [n, headerValues[i]!.constant!])
    : null;
  return {
    index,
    method,
    origin,
    target,
    headerNames,
    headerValues,
    staticHeaders,
    body,
    oauth2,
    timeoutMs: timeoutS * 1000,
    rate,
    thinkMs,
    assertion,
    extraction,
    extractSlot,
    needsBody: (assertion !== null && entry.assertionType !== 'status') || extraction !== null,
  };
}
