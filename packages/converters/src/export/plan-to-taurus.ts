import { type LoadProfile, formatSpan, peakTarget, profileLengthMs } from '@aqa/plan';
import { stringify } from 'yaml';
import { scriptFileName } from './file-name';
import { type JsonLiteral, jsonLiteralText } from './json-literal-text';
import {
  type GeneratorOptions,
  type AssertionModel,
  type ExtractionModel,
  type GeneratedScript,
  type ScriptSource,
  type ScriptWarning,
  type StepModel,
  buildScriptModel,
  uniqueWarnings,
  valueAsWritten,
  type DataModel,
  dataFiles,
  dataFileWarnings,
  flowsNotWritten,
} from './script-model';
import { arrivalPool, profileSegments, rampHold, taurusStairs } from './profile-segments';
import { base64Utf8 } from './serializers/base64';
import {
  jmeterQueryPieces,
  jmeterPieces,
  jmeterString,
  jmeterText,
  jmeterValue,
} from './serializers/jmeter-text';
import { captureGroupCount, escapeOroRegex } from './serializers/regex-escape';
import { xpathString } from './serializers/xpath-literal';
import { textExtractionPattern } from './text-extraction';

/**
 * Taurus configuration (.yml) for its default JMeter executor: `bzt file.yml`. Taurus turns the requests
 * into a JMeter plan, so every string is JMeter text (see jmeter-text.ts) and the YAML itself is written by
 * the yaml library. The plan maps to Taurus's documented elements: execution concurrency / hold-for,
 * requests with method, headers, body, timeout, extract-jsonpath / extract-regexp / extract-xpath, assert /
 * assert-jsonpath / assert-xpath, `action: pause` after a step for think time (Taurus's own think-time is a
 * pause before the request), `if` blocks for transactionRate and the once-per-user OAuth2 token, and
 * set-variables for {{sequence_number,N}}. Redirects are not followed and embedded resources not fetched.
 */
export function planToTaurus(source: ScriptSource, options: GeneratorOptions = {}): GeneratedScript {
  const { profile } = options;
  const model = buildScriptModel(source);
  const warnings = [...model.warnings];
  const requests: unknown[] = [];

  if (model.sequences.length > 0) {
    // __counter(FALSE) is one counter shared by all threads; the action runs once per iteration.
    requests.push({
      'set-variables': Object.fromEntries(
        model.sequences.map(({ max, ident }) => [
          ident,
          `\${__jexl3((\${__counter(FALSE,)} - 1) % ${max} + 1,)}`,
        ]),
      ),
    });
  }
  for (const client of model.oauthClients) {
    requests.push({
      // Once per user: only while this thread has no token yet.
      if: `\${__jexl3(vars.get("${client.ident}") == null,)}`,
      then: [
        {
          url: jmeterText(client.tokenUrl),
          label: 'OAuth2 token',
          method: 'POST',
          body: {
            grant_type: 'client_credentials',
            client_id: jmeterText(client.clientId),
            client_secret: jmeterText(client.clientSecret),
            ...(client.scope ? { scope: jmeterText(client.scope) } : {}),
          },
          'extract-regexp': {
            [client.ident]: { regexp: '"access_token"\\s*:\\s*"([^"]+)"', template: 1, 'match-no': 1 },
          },
        },
      ],
    });
  }
  for (const step of model.steps) requests.push(...stepRequests(step, warnings));

  const config = {
    execution: [
      {
        executor: 'jmeter',
        ...(profile
          ? taurusLoad(profile, model.steps.length, warnings)
          : { concurrency: model.users, 'hold-for': `${model.durationS}s` }),
        scenario: 'plan',
      },
    ],
    scenarios: {
      plan: {
        // Only the plan's headers; JMeter's default cookie and cache managers stay as Taurus sets them.
        // Taurus turns on both of these by default; off, JMeter sends only the requests below and a 3xx
        // is the answer (docs/adr/0015-target-guard.md "Redirects").
        'follow-redirects': false,
        'retrieve-resources': false,
        ...(model.data.length > 0
          ? { 'data-sources': model.data.map((d, k) => taurusDataSource(d, k, warnings)) }
          : {}),
        requests,
      },
    },
  };
  const flows = flowsNotWritten(source, 'Taurus');
  const header = '# AnybodyQA performance plan for Taurus (JMeter executor). Run: bzt <this file>\n';
  return {
    files: [
      { name: scriptFileName('taurus', source.name), content: header + stringify(config, { lineWidth: 0 }) },
      ...dataFiles(model.data, options),
    ],
    warnings: uniqueWarnings([...warnings, ...dataFileWarnings(model.data), ...flows]),
    ...(flows.length > 0 ? { unsupported: flows } : {}),
  };
}

/**
 * A data source as Taurus's data-sources entry (JMeter's CSV Data Set underneath): the file beside the
 * script has no header, so the columns are named; `loop: false` stops the thread at the end of the rows.
 * Taurus shares the rows among all threads and says nothing of JMeter's per-thread mode.
 */
function taurusDataSource(data: DataModel, k: number, warnings: ScriptWarning[]): Record<string, unknown> {
  if (data.share === 'user')
    warnings.push({
      field: `data_sources[${k}].share`,
      message:
        'Taurus data-sources have no sharing mode: every user takes the next row of one sequence (share: all)',
    });
  return {
    path: data.file,
    delimiter: ',',
    quoted: true,
    loop: data.loop,
    'variable-names': data.columns.map((c) => c.ident).join(','),
  };
}

/**
 * Whether a Taurus execution says this profile as it is — a staircase, or one ramp-up and a hold with
 * no ramp-down — so a Taurus run follows the plan's line (taurusLoad warns about any other shape). The
 * server asks it before handing a plan to Taurus (apps/server/src/services/runs/builtin-only.ts).
 */
export function taurusSaysProfile(profile: LoadProfile): boolean {
  if (taurusStairs(profile) !== undefined) return true;
  const shape = rampHold(profile);
  return shape !== undefined && shape.rampDownMs === 0;
}

/**
 * A load profile as Taurus's execution says one (docs/adr/0027-load-profiles.md
 * "7. Where a profile goes"): `concurrency` reached over `ramp-up` and kept for `hold-for`, in `steps`
 * when the profile is a staircase (taurusStairs); the open model adds `throughput`, which Taurus
 * reaches along the same ramp. The Taurus importer reads it back (taurus-load-profile.ts). Taurus has no ramp-down and no other shape, so any other
 * profile is written as its nearest ramp + hold (up to the peak by the time the line first reaches it,
 * held to the end) with a warning naming what differs.
 */
function taurusLoad(
  profile: LoadProfile,
  stepCount: number,
  warnings: ScriptWarning[],
): Record<string, unknown> {
  const peak = peakTarget(profile);
  const calls = Math.max(1, stepCount);
  const lengthMs = profileLengthMs(profile);
  const stairs = taurusStairs(profile);
  const shape = stairs ? undefined : rampHold(profile);
  let rampUpMs: number;
  if (stairs) rampUpMs = stairs.steps * stairs.stepMs;
  else if (shape) {
    rampUpMs = shape.rampUpMs;
    if (shape.rampDownMs > 0) {
      warnings.push({
        field: 'load_profile.stages',
        message: `Taurus has no ramp-down: the last ${formatSpan(shape.rampDownMs)} hold ${peak} ${profile.model === 'users' ? 'users' : 'iterations/s'} instead of going down to 0`,
      });
    }
  } else {
    const firstPeak = profileSegmentsToPeak(profile, peak);
    rampUpMs = firstPeak;
    warnings.push({
      field: 'load_profile.stages',
      message: `Taurus says a load as one ramp-up and a hold: the stages are written as up to ${peak} over ${formatSpan(rampUpMs)}, then held for ${formatSpan(lengthMs - rampUpMs)}; the other rises and falls of the profile are not in the script`,
    });
  }
  warnings.push({
    field: 'load_profile.graceful_stop',
    message:
      "Taurus has no graceful stop: at the end JMeter stops each user after its current request, not after its iteration within the profile's graceful stop",
  });
  const timing = {
    ...(rampUpMs > 0 ? { 'ramp-up': formatSpan(rampUpMs) } : {}),
    ...(stairs ? { steps: stairs.steps } : {}),
    'hold-for': formatSpan(lengthMs - rampUpMs),
  };
  if (profile.model === 'users') return { concurrency: peak, ...timing };
  if (calls > 1) {
    warnings.push({
      field: 'load_profile.model',
      message: `Taurus's throughput counts requests, not iterations: ${peak} iterations/s of ${calls} calls are written as ${Math.round(peak * calls * 1000) / 1000} requests/s`,
    });
  }
  return { concurrency: arrivalPool(profile), throughput: Math.round(peak * calls * 1000) / 1000, ...timing };
}

/** When the planned line first reaches `peak`, in milliseconds from the start. */
function profileSegmentsToPeak(profile: LoadProfile, peak: number): number {
  if (profile.start === peak) return 0;
  return profileSegments(profile).find((s) => s.to === peak)?.toMs ?? 0;
}

function stepRequests(step: StepModel, warnings: ScriptWarning[]): unknown[] {
  const headers: Record<string, string> = {};
  for (const h of step.headers) {
    if (/^[~^]/.test(h.name)) {
      warnings.push({
        field: `${step.field}.headers`,
        message: `Taurus reads a key that starts with ~ or ^ as a merge instruction, so the header ${h.name} is renamed`,
      });
    }
    headers[/^[~^]/.test(h.name) ? `X-${h.name.slice(1)}` : h.name] = jmeterValue(h.value);
  }
  if (step.oauthClient !== undefined) headers.Authorization = `Bearer \${aqa_oauth_${step.oauthClient}}`;
  if (step.basicAuth) {
    warnings.push({
      field: `${step.field}.authorization`,
      message:
        'Taurus cannot base64-encode basic credentials that hold {{variables}}; they are encoded as written',
    });
    const text = `${valueAsWritten(step.basicAuth.username)}:${valueAsWritten(step.basicAuth.password)}`;
    headers.Authorization = jmeterText(`Basic ${base64Utf8(text)}`);
  }

  const urlPieces = jmeterPieces(step.url);
  if (step.query.length > 0) {
    urlPieces.push(
      { text: valueAsWritten(step.url).includes('?') ? '&' : '?' },
      ...jmeterQueryPieces(step.query),
    );
  }
  const request: Record<string, unknown> = {
    url: jmeterString(urlPieces),
    label: jmeterText(step.label),
    method: step.method,
  };
  if (Object.keys(headers).length > 0) request.headers = headers;
  if (step.body) request.body = jmeterValue(step.body);
  // Taurus's timeout also adds a duration assertion: a slower response fails, as the engine counts it.
  request.timeout = `${step.timeoutMs}ms`;
  if (step.extraction) Object.assign(request, extractor(step.extraction));
  if (step.assertion) Object.assign(request, assertion(step, step.assertion, warnings));

  const block: unknown[] = [request];
  if (step.thinkTimeMs > 0) {
    block.push({ action: 'pause', target: 'current-thread', 'pause-duration': `${step.thinkTimeMs}ms` });
  }
  if (step.ratePercent >= 100) return block;
  // The If Controller reads its condition as JavaScript after JMeter replaced the random number.
  return [{ if: `\${__Random(0,9999,)} < ${Math.round(step.ratePercent * 100)}`, then: block }];
}

function extractor(extraction: ExtractionModel): Record<string, unknown> {
  switch (extraction.type) {
    case 'json':
      return {
        'extract-jsonpath': { [extraction.ident]: { jsonpath: jmeterText(extraction.path), default: '' } },
      };
    case 'regex': {
      const template = captureGroupCount(extraction.pattern) === 0 ? 0 : 1;
      return {
        'extract-regexp': {
          [extraction.ident]: {
            regexp: jmeterText(extraction.pattern),
            template,
            'match-no': 1,
            default: '',
          },
        },
      };
    }
    case 'text': {
      const regexp =
        extraction.boundaries.kind === 'whole-body'
          ? '([\\s\\S]*)'
          : textExtractionPattern(extraction.boundaries, escapeOroRegex);
      return {
        'extract-regexp': {
          [extraction.ident]: { regexp: jmeterText(regexp), template: 1, 'match-no': 1, default: '' },
        },
      };
    }
    case 'xml':
      return {
        'extract-xpath': {
          [extraction.ident]: {
            xpath: jmeterText(extraction.path),
            default: '',
            'validate-xml': false,
            'ignore-whitespace': true,
            'use-tolerant-parser': false,
          },
        },
      };
  }
}

/**
 * A json equals / not_equals of a JSON literal (docs/design.md §4 "JSON literals") as Taurus's JSON Path
 * Assertion says it: null with expect-null, a number as a pattern its whole text matches, else the text.
 */
function jsonLiteralAssertion(
  path: string,
  literal: JsonLiteral,
  operator: AssertionModel['operator'],
): Record<string, unknown> {
  const base = { jsonpath: jmeterText(path), validate: true };
  const invert = operator === 'not_equals';
  if (literal.kind === 'null') return { ...base, 'expect-null': true, invert };
  const text = jsonLiteralText(literal);
  return 'exact' in text
    ? { ...base, 'expected-value': jmeterText(text.exact), regexp: false, invert }
    : { ...base, 'expected-value': jmeterText(text.pattern), regexp: true, invert };
}

function assertion(
  step: StepModel,
  model: AssertionModel,
  warnings: ScriptWarning[],
): Record<string, unknown> {
  const value = model.expected;
  switch (model.type) {
    case 'status':
    case 'text': {
      // Taurus's assert is a Response Assertion: regexp false is a substring test, true a regex search.
      const exact = `^${escapeOroRegex(value)}$`;
      const [contains, regexp, not] =
        model.operator === 'contains'
          ? [value, false, false]
          : model.operator === 'regex'
            ? [value, true, false]
            : [exact, true, model.operator === 'not_equals'];
      return {
        assert: [
          {
            contains: [jmeterText(contains)],
            subject: model.type === 'status' ? 'http-code' : 'body',
            regexp,
            not,
          },
        ],
      };
    }
    case 'json': {
      if (model.literal)
        return { 'assert-jsonpath': [jsonLiteralAssertion(model.path, model.literal, model.operator)] };
      // The JSONPath assertion matches a regex against the whole value, so searches are wrapped in [\s\S]*.
      const expected =
        model.operator === 'contains'
          ? `[\\s\\S]*${escapeOroRegex(value)}[\\s\\S]*`
          : model.operator === 'regex'
            ? `[\\s\\S]*(?:${value})[\\s\\S]*`
            : value;
      return {
        'assert-jsonpath': [
          {
            jsonpath: jmeterText(model.path),
            validate: true,
            'expected-value': jmeterText(expected),
            regexp: model.operator === 'contains' || model.operator === 'regex',
            invert: model.operator === 'not_equals',
          },
        ],
      };
    }
    case 'xml': {
      if (model.operator === 'regex') {
        warnings.push({
          field: `${step.field}.assertionOperator`,
          message:
            'Taurus asserts XML with XPath 1.0, which has no regular expressions; the assertion is left out',
        });
        return {};
      }
      const xpath =
        model.operator === 'contains'
          ? `contains(string(${model.path}), ${xpathString(value)})`
          : `string(${model.path}) = ${xpathString(value)}`;
      return {
        'assert-xpath': [
          {
            xpath: jmeterText(xpath),
            invert: model.operator === 'not_equals',
            'use-tolerant-parser': false,
            validate: false,
            'ignore-whitespace': true,
          },
        ],
      };
    }
  }
}
