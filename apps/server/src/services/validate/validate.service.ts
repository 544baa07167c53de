import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import { checkableUrl, guardedConnector, TargetGuard } from '@aqa/engine';
import { OAuth2Tokens, type TokenProblem, type TokenSender } from '@aqa/engine/call';
import {
  effectiveAuthorization,
  hasExtraction,
  PLAN_ERRORS,
  type ApiValidationResult,
  type UrlEntry,
  type ValidationCheckResult,
  type ValidationResponse,
} from '@aqa/plan';
import { Agent } from 'undici';
import { ForbiddenError, ValidationError } from '../../errors';
import { buildRequest, withAuthorization, type Variables } from './build-request';
import { exchange, formatSeconds, type Exchange, type OutgoingRequest } from './http-exchange';
import { namedItems } from './judge-entry';
import { JudgePool } from './judge-pool';
import { refusePerfPlanPatterns } from '../pattern-refusal';

export interface ValidationLimits {
  /**
   * The whole pass, token requests included. Below the spec client's 30 s request time-out, so the
   * answer always arrives: a step that would run past it is cut short, and later steps are not sent.
   */
  totalMs: number;
  /** The most of one answer's body that is read and checked; the rest is never downloaded. */
  maxBodyBytes: number;
}

export const DEFAULT_VALIDATION_LIMITS: ValidationLimits = {
  totalMs: 25_000,
  maxBodyBytes: 5 * 1024 * 1024,
};

/** The state one validation pass carries from step to step. */
interface Pass {
  variables: Variables;
  tokens: OAuth2Tokens;
  dispatcher: Agent;
  deadline: number;
}

/**
 * Validate (docs/reference/01-authoring.md §7 POST /api/validate-script): sends each API of the plan once, in order, from
 * the server, as one virtual user's first iteration (docs/design.md §4): templates see what earlier steps
 * extracted and `{{sequence_number,N}}` is 1. transactionRate and think time are load settings and are
 * not applied: every step is sent, without pauses. Redirects are not followed, so each answer is the
 * API's own.
 *
 * Every target passes the target guard (docs/adr/0015-target-guard.md): the URLs whose host is
 * written out are checked before anything is sent (a refusal is a 403 TARGET_REFUSED naming the host
 * and the setting), and every connection is checked again when it opens, on the address it resolves
 * to then, which covers hosts that come from a template.
 *
 * Per API the status is "success" (answered, status below 400 unless a status check decides, the
 * assertion and every validation item passed), "error" (no answer, a bad status, or a failed check),
 * "warning" (passed, but the body was cut at the read limit or the extraction found nothing) or
 * "skipped" (not sent: the pass's time limit was reached). `failed` counts every API not "success".
 */
export class ValidateService {
  constructor(
    private readonly limits: ValidationLimits = DEFAULT_VALIDATION_LIMITS,
    private readonly guard: TargetGuard = new TargetGuard({ allow: [], deny: [] }),
    /** Where each answer is judged, off the event loop (judge-pool.ts). */
    private readonly judges: JudgePool = new JudgePool(),
  ) {}

  async close(): Promise<void> {
    await this.judges.close();
  }

  async validate(urls: readonly UrlEntry[]): Promise<ValidationResponse> {
    if (urls.length === 0) {
      throw new ValidationError([{ field: 'urls', message: PLAN_ERRORS.noApisToValidate }], {
        code: 'NO_APIS',
      });
    }
    // A pattern the linear-time engine cannot run is refused before anything is sent (docs/adr/0022-linear-time-patterns.md).
    await refusePerfPlanPatterns(urls);
    await this.refuseGuardedTargets(urls);
    const pass: Pass = {
      variables: {},
      // A pass asks each OAuth2 client once: a failure is kept too (docs/call-core.md).
      tokens: new OAuth2Tokens({ keepFailuresMs: Infinity }),
      // One connection pool per pass, closed with it. The connect time-out is left to the
      // per-request timer, which covers connecting too.
      dispatcher: new Agent({ connect: guardedConnector(this.guard, { timeout: this.limits.totalMs }) }),
      deadline: performance.now() + this.limits.totalMs,
    };
    const results: ApiValidationResult[] = [];
    try {
      for (const entry of urls) results.push(await this.validateEntry(entry, pass));
    } finally {
      await pass.dispatcher.destroy();
    }
    const successful = results.filter((r) => r.status === 'success').length;
    return {
      total_apis: results.length,
      successful,
      failed: results.length - successful,
      api_results: results,
    };
  }

  /** 403 before anything is sent when a written-out URL or token URL of the plan is refused by the guard. */
  private async refuseGuardedTargets(urls: readonly UrlEntry[]): Promise<void> {
    const targets = new Set<string>();
    for (const entry of urls) {
      const auth = effectiveAuthorization(entry.authorization);
      for (const text of [entry.url, auth?.type === 'oauth2' ? auth.tokenUrl : '']) {
        const url = checkableUrl(text);
        if (url !== null) targets.add(url.origin);
      }
    }
    const decisions = await Promise.all([...targets].map((origin) => this.guard.checkUrl(origin)));
    const reasons = [...new Set(decisions.flatMap((d) => (d.allowed ? [] : [d.reason])))];
    if (reasons.length > 0) throw new ForbiddenError('TARGET_REFUSED', reasons.join(' '));
  }

  private async validateEntry(entry: UrlEntry, pass: Pass): Promise<ApiValidationResult> {
    const built = buildRequest(entry, pass.variables);
    const displayUrl = built.ok ? built.request.url.href : built.url;
    const noAnswer = (status: string, error: string): ApiValidationResult => ({
      status,
      method: entry.method,
      url: displayUrl,
      response_time: null,
      response_status: null,
      error,
      validations: namedItems(entry).map((item) => unchecked(item, 'Not checked: the request got no answer')),
    });
    if (!built.ok) return noAnswer('error', built.error);
    const outOfTime = () =>
      noAnswer(
        'skipped',
        `Not sent: the whole validation is limited to ${formatSeconds(this.limits.totalMs)} s`,
      );
    if (outOfPass(pass)) return outOfTime();

    const send = (request: OutgoingRequest): Promise<Exchange> => this.send(request, entry, pass);
    let request = built.request;
    if (built.oauth2 !== null) {
      const sendToken: TokenSender = async (tokenRequest) => {
        const result = await send(tokenRequest);
        if (!result.ok) return { error: result.error };
        return { status: result.response.status, body: result.response.body.toString('utf8') };
      };
      const token = await pass.tokens.get(built.oauth2, sendToken);
      if ('problem' in token)
        return noAnswer('error', tokenProblemText(built.oauth2.tokenUrl, token.problem));
      request = withAuthorization(request, `Bearer ${token.token}`);
      if (outOfPass(pass)) return outOfTime();
    }
    const result = await send(request);
    if (!result.ok) return noAnswer('error', result.error);

    const { response } = result;
    const judged = await this.judges.judge(entry, response, pass.deadline);
    if (!judged.ok) {
      const why = `Not checked: ${judged.reason}`;
      return {
        status: 'error',
        method: entry.method,
        url: displayUrl,
        response_time: response.timeMs,
        response_status: response.status,
        error: why,
        validations: namedItems(entry).map((item) => unchecked(item, why)),
      };
    }
    const { assertion, checks, extracted } = judged.verdict;
    if (extracted !== undefined) pass.variables[entry.extractName] = extracted;

    const problems: string[] = [];
    // A status check (assertion or validation item) decides what a good status is; otherwise ≥ 400 is an error.
    const statusChecked =
      entry.validations.some((item) => item.type === 'status_code') ||
      (assertion !== undefined && entry.assertionType === 'status');
    if (!statusChecked && response.status >= 400) {
      problems.push(`The API answered ${response.status} ${response.statusText}`.trim());
    }
    if (assertion !== undefined && !assertion.passed) problems.push(assertion.message);
    const failedChecks = checks.filter((check) => check.status === 'error');
    if (failedChecks.length === 1) {
      const [check] = failedChecks;
      problems.push(`Validation "${check?.name}" failed: ${check?.message}`);
    } else if (failedChecks.length > 1) {
      problems.push(`${failedChecks.length} of ${checks.length} validations failed`);
    }

    const warnings: string[] = [];
    if (response.truncated) {
      const limit = formatBytes(this.limits.maxBodyBytes);
      warnings.push(`The answer is larger than ${limit}: only its first ${limit} were read and checked`);
    }
    if (hasExtraction(entry) && extracted === undefined) {
      warnings.push(
        `Nothing was extracted into {{${entry.extractName}}}: the ${entry.extractType} extraction found no match`,
      );
    }
    for (const check of checks) {
      if (check.status === 'warning') warnings.push(`Validation "${check.name}": ${check.message}`);
    }

    const status = problems.length > 0 ? 'error' : warnings.length > 0 ? 'warning' : 'success';
    const messages = [...problems, ...warnings];
    return {
      status,
      method: entry.method,
      url: displayUrl,
      response_time: response.timeMs,
      response_status: response.status,
      error: messages.length > 0 ? messages.join('; ') : null,
      validations: checks,
    };
  }

  /** One exchange with the step's time-out, cut to what is left of the pass's limit. */
  private send(request: OutgoingRequest, entry: UrlEntry, pass: Pass): Promise<Exchange> {
    const stepMs = entry.timeout * 1000;
    const timeoutMs = Math.max(1, Math.min(stepMs, pass.deadline - performance.now()));
    return exchange(request, {
      dispatcher: pass.dispatcher,
      timeoutMs,
      maxBodyBytes: this.limits.maxBodyBytes,
      timeoutNote:
        timeoutMs < stepMs
          ? `(the whole validation is limited to ${formatSeconds(this.limits.totalMs)} s)`
          : undefined,
    });
  }
}

type ValidationItem = UrlEntry['validations'][number];

/** Why an API had no OAuth2 token, as Validate answers it. */
function tokenProblemText(tokenUrl: string, problem: TokenProblem): string {
  const reason = ((): string => {
    switch (problem.kind) {
      case 'not-a-url':
        return 'the token URL is not a valid URL';
      case 'not-http':
        return 'the token URL must start with http:// or https://';
      case 'no-answer':
        return problem.error;
      case 'status':
        return `the token endpoint answered ${problem.status} ${STATUS_CODES[problem.status] ?? ''}`.trim();
      case 'not-json':
        return 'the answer is not JSON';
      case 'no-token':
        return 'the answer has no access_token';
    }
  })();
  return `OAuth2 token request to ${tokenUrl} failed: ${reason}`;
}

function unchecked(item: ValidationItem, message: string): ValidationCheckResult {
  return {
    id: item.id,
    name: item.name,
    type: item.type,
    expected_value: item.expected_value,
    actual_value: null,
    status: 'error',
    message,
  };
}

function formatBytes(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes % MB === 0) return `${bytes / MB} MB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/**
 * Less time than this left in a pass sends nothing more: a request given a few milliseconds could only
 * time out. It also covers the event loop's millisecond clock, on which the timer that cut the step
 * before may fire up to a millisecond before performance.now() reaches the deadline.
 */
const TOO_LITTLE_LEFT_MS = 10;

function outOfPass(pass: { deadline: number }): boolean {
  return pass.deadline - performance.now() < TOO_LITTLE_LEFT_MS;
}
