import {
  type FunctionalValidationInput,
  FunctionalValidationSchema,
  type PerfPlan,
  PerfPlanSchema,
} from '@aqa/plan';
import { Gen, randomEntry } from '@aqa/plan/testing';
import { describe, expect, it } from 'vitest';
import { planToTaurus } from '../../export/plan-to-taurus';
import { type StepModel, type Value, buildScriptModel, valueAsWritten } from '../../export/script-model';
import { base64Utf8 } from '../../export/serializers/base64';
import { escapeOroRegex } from '../../export/serializers/regex-escape';
import { textExtractionPattern } from '../../export/text-extraction';
import { readTaurusScript } from './read-taurus';
import { TaurusScriptError } from './taurus-model';

/**
 * The performance plan's Taurus generator and the Taurus reader agree: seeded random plans → Taurus
 * YAML → reader → the same calls (method, URL with its query, headers, body, timeout), the same
 * assertions as validations and the same extractions as captures, in the terms docs/reference/
 * 02-running.md §3 "Taurus scripts" gives. What the generator writes that a functional test cannot run
 * (an `if` block for a transaction rate or an OAuth2 token, set-variables for sequence numbers, pauses)
 * is a warning with its path and line. The seed is in every message.
 */

function randomPlan(seed: number): PerfPlan {
  const g = Gen.of(seed);
  return PerfPlanSchema.parse({
    name: `Round trip ${seed}`,
    tool: 'taurus',
    concurrent_users: g.int(1, 100),
    duration: g.int(1, 60),
    urls: Array.from({ length: g.int(1, 6) }, (_, index) => randomEntry(g, index)),
  });
}

const SEEDS = Array.from({ length: 60 }, (_, i) => 3000 + i * 7919);

/** A generator value as the reader gives it back: variables as {{ident}}, sequences as {{aqa_seq_N}}. */
function text(value: Value): string {
  return value.map((part) => (part.kind === 'text' ? part.text : `{{${part.ident}}}`)).join('');
}

function expectedUrl(step: StepModel): string {
  const url = text(step.url);
  if (step.query.length === 0) return url;
  const query = step.query
    .map(({ name, value }) => {
      const encoded = value
        .map((part) => (part.kind === 'text' ? encodeURIComponent(part.text) : `{{${part.ident}}}`))
        .join('');
      return `${encodeURIComponent(name)}=${encoded}`;
    })
    .join('&');
  return `${url}${valueAsWritten(step.url).includes('?') ? '&' : '?'}${query}`;
}

function expectedHeaders(step: StepModel): Record<string, string> {
  const headers: Record<string, string> = {};
  // A name starting with ~ or ^ is a Taurus merge instruction; the generator renames it.
  for (const h of step.headers)
    headers[/^[~^]/.test(h.name) ? `X-${h.name.slice(1)}` : h.name] = text(h.value);
  if (step.oauthClient !== undefined) headers.Authorization = `Bearer {{aqa_oauth_${step.oauthClient}}}`;
  if (step.basicAuth) {
    const credentials = `${valueAsWritten(step.basicAuth.username)}:${valueAsWritten(step.basicAuth.password)}`;
    headers.Authorization = `Basic ${base64Utf8(credentials)}`;
  }
  return headers;
}

/** What the reader makes of the generator's assertion (see the reference's `assert` and `assert-jsonpath`). */
function expectedValidations(step: StepModel): FunctionalValidationInput[] {
  const a = step.assertion;
  if (a === undefined) return [];
  const v = a.expected;
  const exact = `^${escapeOroRegex(v)}$`;
  const syntax = /[\\^$.|?*+()[\]{}]/;
  let rule: FunctionalValidationInput | undefined;
  if (a.type === 'status') {
    rule = {
      type: 'status_code',
      expected_value: v,
      ...(a.operator === 'not_equals' ? { negate: true } : {}),
    };
  } else if (a.type === 'text') {
    rule =
      a.operator === 'contains' || (a.operator === 'regex' && !syntax.test(v))
        ? { type: 'contains_text', expected_value: v }
        : a.operator === 'regex'
          ? { type: 'regex', expected_value: v }
          : {
              type: 'regex',
              expected_value: exact,
              ...(a.operator === 'not_equals' ? { negate: true } : {}),
            };
  } else if (a.type === 'json') {
    rule = {
      type: 'json_path',
      expected_value:
        a.operator === 'equals'
          ? `${a.path} == ${v}`
          : a.operator === 'not_equals'
            ? `${a.path} != ${v}`
            : a.operator === 'contains'
              ? `${a.path} ~ ${escapeOroRegex(v)}`
              : `${a.path} ~ (?:${v})`,
    };
  }
  // A rule the model refuses (a pattern JavaScript cannot read) is warned and left out.
  return rule !== undefined && FunctionalValidationSchema.safeParse(rule).success ? [rule] : [];
}

function expectedCaptures(step: StepModel) {
  const e = step.extraction;
  if (e === undefined) return [];
  const base = { name: e.ident, default: '' };
  switch (e.type) {
    case 'json':
      return [{ ...base, from: 'json_path', expression: e.path }];
    case 'regex':
      return [{ ...base, from: 'regex', expression: e.pattern }];
    case 'text':
      return [
        {
          ...base,
          from: 'regex',
          expression:
            e.boundaries.kind === 'whole-body'
              ? '([\\s\\S]*)'
              : textExtractionPattern(e.boundaries, escapeOroRegex),
        },
      ];
    case 'xml':
      return [];
  }
}

describe('performance plan → Taurus YAML → Taurus reader', () => {
  it.each(SEEDS)('gives back the same calls, checks and captures (seed %i)', (seed) => {
    const plan = randomPlan(seed);
    const model = buildScriptModel(plan);
    const yaml = planToTaurus(plan).files[0]?.content ?? '';
    const runs = model.steps.filter((step) => step.ratePercent >= 100);
    const skipped = model.steps.length - runs.length;
    if (runs.length === 0) {
      // Every step is in an `if` block: nothing can run, and the refusal names each block.
      expect(() => readTaurusScript(yaml), `seed ${seed}`).toThrow(TaurusScriptError);
      try {
        readTaurusScript(yaml);
      } catch (error) {
        const blocks = (error as TaurusScriptError).warnings.filter((w) =>
          w.message.startsWith('This if block'),
        );
        expect(blocks).toHaveLength(skipped + model.oauthClients.length);
        expect(blocks.every((w) => w.effect === 'refused' && (w.line ?? 0) > 0)).toBe(true);
      }
      return;
    }
    const result = readTaurusScript(yaml);

    expect(
      result.apis.map((api) => ({
        method: api.method,
        url: api.url,
        headers: api.headers,
        body: api.body,
        timeout: api.timeout,
        validations: api.validations,
        captures: api.captures,
      })),
      `seed ${seed}\n${yaml}`,
    ).toEqual(
      runs.map((step) => ({
        method: step.method,
        url: expectedUrl(step),
        headers: expectedHeaders(step),
        body: step.body === undefined ? '' : text(step.body),
        timeout: step.timeoutMs / 1000,
        validations: expectedValidations(step),
        captures: expectedCaptures(step),
      })),
    );
    expect(result.concurrent_users).toBe(plan.concurrent_users);
    expect(result.test_duration).toBe(plan.duration);

    // Each `if` block (a step's transaction rate, an OAuth2 token) is one warning with its line.
    const ifs = result.warnings.filter((w) => w.message.startsWith('This if block'));
    expect(ifs, `seed ${seed}`).toHaveLength(skipped + model.oauthClients.length);
    const refusedChecks = runs.filter(
      (s) => s.assertion !== undefined && expectedValidations(s).length === 0,
    );
    expect(result.warnings.filter((w) => w.message.startsWith('This check ('))).toHaveLength(
      refusedChecks.length,
    );
    for (const warning of result.warnings) {
      expect(warning.path, `seed ${seed}`).toMatch(/^(scenarios\.plan\.requests\[\d+\]|execution\[0\])/);
      expect(warning.line, `${warning.path} (seed ${seed})`).toBeGreaterThan(0);
      expect(warning.effect).toBe('skipped');
    }
  });

  it('covers what the seeds are for: skipped steps, OAuth2, and every assertion and extraction type on steps that run', () => {
    const models = SEEDS.map((seed) => buildScriptModel(randomPlan(seed)));
    const steps = models.flatMap((m) => m.steps);
    const runs = steps.filter((s) => s.ratePercent >= 100);
    expect(runs.length).toBeGreaterThan(60);
    expect(steps.some((s) => s.ratePercent < 100)).toBe(true);
    expect(models.some((m) => m.oauthClients.length > 0)).toBe(true);
    for (const type of ['status', 'text', 'json']) {
      for (const operator of ['equals', 'contains', 'regex', 'not_equals']) {
        expect(
          runs.some((s) => s.assertion?.type === type && s.assertion.operator === operator),
          `${type} ${operator}`,
        ).toBe(true);
      }
    }
    for (const type of ['json', 'regex', 'text'])
      expect(runs.some((s) => s.extraction?.type === type)).toBe(true);
    expect(runs.some((s) => s.body !== undefined && s.query.length > 0 && s.headers.length > 1)).toBe(true);
  });
});
