import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NASTY, escapingStaticPlan, flowPlan, jsonFlowPlan, jsonLiteralsPlan } from '../../test/plans';
import { jmeterEvaluate, jmeterReferences } from '../../test/tool-semantics';
import { planToTaurus } from './plan-to-taurus';

const BASE = 'http://127.0.0.1:8080';
const CASES = { flow: flowPlan(BASE), 'json-flow': jsonFlowPlan(BASE), escaping: escapingStaticPlan(BASE) };

type Yaml = Record<string, unknown>;

/** The keys Taurus documents (JMeter executor: requests, extractors, assertions, logic blocks). */
const DOCUMENTED: Record<string, string[]> = {
  request: [
    'url',
    'method',
    'label',
    'body',
    'headers',
    'think-time',
    'timeout',
    'extract-regexp',
    'extract-jsonpath',
    'extract-xpath',
    'assert',
    'assert-jsonpath',
    'assert-xpath',
  ],
  if: ['if', 'then', 'else'],
  action: ['action', 'target', 'pause-duration'],
  'set-variables': ['set-variables'],
  'extract-regexp': ['regexp', 'default', 'match-no', 'template', 'subject'],
  'extract-jsonpath': ['jsonpath', 'default'],
  'extract-xpath': ['xpath', 'default', 'validate-xml', 'ignore-whitespace', 'use-tolerant-parser'],
  assert: ['contains', 'subject', 'regexp', 'not', 'assume-success'],
  'assert-jsonpath': ['jsonpath', 'validate', 'expected-value', 'regexp', 'expect-null', 'invert'],
  'assert-xpath': ['xpath', 'use-tolerant-parser', 'ignore-whitespace', 'validate', 'invert'],
  execution: ['executor', 'concurrency', 'hold-for', 'ramp-up', 'iterations', 'scenario'],
};

function config(plan: ReturnType<typeof flowPlan>): { execution: Yaml[]; requests: Yaml[] } {
  const doc = parse(planToTaurus(plan).files[0]?.content ?? '') as {
    execution: Yaml[];
    scenarios: { plan: { requests: Yaml[] } };
  };
  return { execution: doc.execution, requests: doc.scenarios.plan.requests };
}

/** Every request and block, depth first, as Taurus walks them. */
function walk(items: Yaml[]): Yaml[] {
  return items.flatMap((item) => [item, ...walk((item.then as Yaml[] | undefined) ?? [])]);
}

function kind(item: Yaml): string {
  return ['if', 'action', 'set-variables'].find((k) => k in item) ?? 'request';
}

describe('planToTaurus', () => {
  it.each(Object.entries(CASES))('writes the %s configuration', async (name, plan) => {
    const { files, warnings } = planToTaurus(plan);
    expect(files.map((f) => f.name)).toEqual([expect.stringMatching(/^testplan_taurus_.*\.yml$/)]);
    expect(warnings.filter((w) => !w.message.includes('is not extracted by any step'))).toEqual([]);
    await expect(files[0]?.content).toMatchFileSnapshot(`./__snapshots__/taurus/${name}.yml`);
  });

  it.each(Object.entries(CASES))('uses only keys that Taurus documents (%s)', (_name, plan) => {
    const { execution, requests } = config(plan);
    for (const run of execution)
      expect(DOCUMENTED.execution).toEqual(expect.arrayContaining(Object.keys(run)));
    for (const item of walk(requests)) {
      expect(DOCUMENTED[kind(item)]).toEqual(expect.arrayContaining(Object.keys(item)));
      for (const block of ['extract-regexp', 'extract-jsonpath', 'extract-xpath'] as const) {
        for (const extractor of Object.values((item[block] as Record<string, Yaml> | undefined) ?? {})) {
          expect(DOCUMENTED[block]).toEqual(expect.arrayContaining(Object.keys(extractor)));
        }
      }
      for (const block of ['assert', 'assert-jsonpath', 'assert-xpath'] as const) {
        for (const assertion of (item[block] as Yaml[] | undefined) ?? []) {
          expect(DOCUMENTED[block]).toEqual(expect.arrayContaining(Object.keys(assertion)));
        }
      }
    }
  });

  it('turns off the redirects and embedded resources Taurus follows and fetches by default', () => {
    // docs/adr/0015-target-guard.md "Redirects": JMeter under Taurus connects without the target guard.
    const doc = parse(planToTaurus(jsonFlowPlan(BASE)).files[0]?.content ?? '') as {
      scenarios: { plan: Yaml };
    };
    expect(doc.scenarios.plan).toMatchObject({ 'follow-redirects': false, 'retrieve-resources': false });
    // No request sets either back on.
    const items = walk(doc.scenarios.plan.requests as Yaml[]);
    expect(items.filter((i) => 'follow-redirects' in i || 'retrieve-resources' in i)).toEqual([]);
  });

  it('maps every plan feature to a Taurus element', () => {
    const { execution, requests } = config(jsonFlowPlan(BASE));
    expect(execution).toEqual([{ executor: 'jmeter', concurrency: 2, 'hold-for': '60s', scenario: 'plan' }]);
    expect(requests[0]).toEqual({
      'set-variables': { aqa_seq_5: '${__jexl3((${__counter(FALSE,)} - 1) % 5 + 1,)}' },
    });
    expect(requests[1]).toMatchObject({
      if: '${__jexl3(vars.get("aqa_oauth_0") == null,)}',
      then: [{ method: 'POST', body: { grant_type: 'client_credentials', client_id: 'client-1' } }],
    });
    const items = walk(requests).filter((i) => kind(i) === 'request');
    expect(items.map((i) => i.label)).toEqual([
      'OAuth2 token',
      '1. Login',
      '2. Profile',
      '3. Save profile',
      '4. Reference',
      '5. Secure',
      '6. Ping',
    ]);
    expect(items[1]).toMatchObject({
      method: 'POST',
      body: '{"user":"u${aqa_seq_5}"}',
      'extract-jsonpath': { token: { jsonpath: '$.token' } },
      'assert-jsonpath': [
        {
          jsonpath: '$.user',
          validate: true,
          'expected-value': '[\\s\\S]*(?:^u\\d+$)[\\s\\S]*',
          regexp: true,
          invert: false,
        },
      ],
    });
    expect(items[2]).toMatchObject({
      url: `${BASE}/api/profile?seq=\${__urlencode(\${aqa_seq_5})}`,
      headers: { Authorization: 'Bearer ${token}' },
    });
    expect(items[3]).toMatchObject({
      'extract-regexp': { ref: { regexp: '<ref>([^<]+)</ref>', template: 1 } },
    });
    const rate = requests.find((i) => typeof i.if === 'string' && i.if.startsWith('${__Random'));
    expect(rate).toEqual({
      if: '${__Random(0,9999,)} < 5000',
      then: [
        expect.objectContaining({ label: '4. Reference' }),
        { action: 'pause', target: 'current-thread', 'pause-duration': '200ms' },
      ],
    });
    expect(items[5]).toMatchObject({
      headers: { Authorization: 'Bearer ${aqa_oauth_0}' },
      'assert-jsonpath': [{ invert: true, regexp: false }],
    });
    expect(items[6]?.url).toBe(`${BASE}/api/ping?api_key=q-456`);
  });

  it('writes XPath and status assertions as Taurus reads them, and warns for an XPath regex', () => {
    const plan = flowPlan(BASE);
    const items = walk(config(plan).requests).filter((i) => kind(i) === 'request');
    expect(items[3]).toMatchObject({
      'extract-xpath': { ref: { xpath: '/result/ref' } },
      'assert-xpath': [{ xpath: "string(/result/status) = 'saved'", invert: false }],
    });
    expect(items[1]?.assert).toEqual([
      { contains: ['^200$'], subject: 'http-code', regexp: true, not: false },
    ]);
    const urls = plan.urls.map((u, i) => (i === 2 ? { ...u, assertionOperator: 'regex' as const } : u));
    expect(planToTaurus({ ...plan, urls }).warnings).toEqual([
      {
        field: 'urls[2].assertionOperator',
        message:
          'Taurus asserts XML with XPath 1.0, which has no regular expressions; the assertion is left out',
      },
    ]);
  });

  it('writes user text that JMeter (under Taurus) reads back exactly', () => {
    const plan = escapingStaticPlan(BASE);
    const items = walk(config(plan).requests);
    const evaluate = (text: unknown) =>
      jmeterEvaluate(String(text), jmeterReferences({ picked: '<picked>' }));
    expect(evaluate(items[0]?.url)).toBe(plan.urls[0]?.url);
    expect(evaluate(items[0]?.body)).toBe(NASTY.body);
    expect(evaluate((items[0]?.headers as Yaml)['X-Nasty'])).toBe(NASTY.header);
    expect(evaluate(items[0]?.label)).toBe(`1. ${plan.urls[0]?.name ?? ''}`);
    expect(evaluate((items[1]?.headers as Yaml)['X-Dollar-Before-Variable'])).toBe('cost $$$<picked>');
  });
});

describe('JSON literals in a Taurus configuration (docs/design.md §4 "JSON literals")', () => {
  it('writes a string unquoted, a number as a pattern of its forms, null with expect-null', () => {
    const items = walk(config(jsonLiteralsPlan(BASE)).requests).filter((i) => kind(i) === 'request');
    expect(items.map((i) => (i['assert-jsonpath'] as Yaml[])[0])).toEqual([
      { jsonpath: '$.name', validate: true, 'expected-value': 'ada', regexp: false, invert: false },
      { jsonpath: '$.count', validate: true, 'expected-value': '10(?:\\.0+)?', regexp: true, invert: false },
      { jsonpath: '$.price', validate: true, 'expected-value': '10\\.50*', regexp: true, invert: true },
      { jsonpath: '$.ok', validate: true, 'expected-value': 'true', regexp: false, invert: false },
      { jsonpath: '$.gone', validate: true, 'expect-null': true, invert: false },
      { jsonpath: '$.name', validate: true, 'expected-value': 'ada', regexp: false, invert: false },
    ]);
  });
});
