import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NASTY,
  escapingPlan,
  escapingStaticPlan,
  flowPlan,
  jsonFlowPlan,
  jsonLiteralsPlan,
  weightedFlowsPlan,
} from '../../test/plans';
import { jmeterEvaluate, jmeterReferences } from '../../test/tool-semantics';
import { startTargetServer } from '../../test/target';
import { jmeterMissing, readJtl, removeDir, runJmeter, workDir } from '../../test/tools';
import { parseXml } from '../../test/xml-query';
import { PerfPlanSchema, type PerfPlanInput } from '@aqa/plan';
import { JMETER_ELEMENTS } from './jmeter-versions';
import { JMETER_ERROR_BODY_VARIABLE, planToJmx } from './plan-to-jmx';

const BASE = 'http://127.0.0.1:8080';
const CASES = {
  flow: flowPlan(BASE),
  'json-flow': jsonFlowPlan(BASE),
  escaping: escapingStaticPlan(BASE),
  'weighted-flows': weightedFlowsPlan(BASE),
};
const missing = jmeterMissing();

const jmx = (plan: ReturnType<typeof flowPlan>) => parseXml(planToJmx(plan).files[0]?.content ?? '');
const prop = (name: string) => `*[@name='${name}']`;

describe('planToJmx', () => {
  it.each(Object.entries(CASES))('writes the %s test plan', async (name, plan) => {
    const { files, warnings } = planToJmx(plan);
    expect(files.map((f) => f.name)).toEqual([expect.stringMatching(/^testplan_jmeter_.*\.jmx$/)]);
    expect(warnings.filter((w) => !w.message.includes('is not extracted by any step'))).toEqual([]);
    await expect(files[0]?.content).toMatchFileSnapshot(`./__snapshots__/jmeter/${name}.jmx`);
  });

  it('follows no redirect and fetches no embedded resource, in every sampler, the token request too', () => {
    // docs/adr/0015-target-guard.md "Redirects": JMeter connects without the target guard.
    const x = jmx(jsonFlowPlan(BASE));
    const samplers = x.count('//HTTPSamplerProxy');
    expect(samplers).toBe(7);
    for (const name of ['follow_redirects', 'auto_redirects', 'image_parser']) {
      expect(x.texts(`//HTTPSamplerProxy/${prop(`HTTPSampler.${name}`)}`), name).toEqual(
        Array(samplers).fill('false'),
      );
    }
    expect(x.count('//ConfigTestElement')).toBe(0);
  });

  it('uses JMeter 5 elements for every plan feature', () => {
    const x = jmx(jsonFlowPlan(BASE));
    const group = x.nodes('/jmeterTestPlan/hashTree/hashTree/ThreadGroup')[0];
    expect(x.texts(prop('ThreadGroup.num_threads'), group)).toEqual(['${__P(aqa.users,2)}']);
    expect(x.texts(prop('ThreadGroup.duration'), group)).toEqual(['${__P(aqa.duration,60)}']);
    expect(x.texts(`//CounterConfig/${prop('CounterConfig.end')}`)).toEqual(['5']);
    expect(x.texts(`//CounterConfig/${prop('CounterConfig.per_user')}`)).toEqual(['false']);
    expect(x.texts('//HTTPSamplerProxy/@testname')).toEqual([
      'OAuth2 token',
      '1. Login',
      '2. Profile',
      '3. Save profile',
      '4. Reference',
      '5. Secure',
      '6. Ping',
    ]);
    expect(x.count('//OnceOnlyController/following-sibling::hashTree[1]/HTTPSamplerProxy')).toBe(1);
    expect(x.texts(`//JSONPostProcessor/${prop('JSONPostProcessor.jsonPathExprs')}`)).toEqual([
      '$.token',
      '$.user',
      '$.id',
      "$['name']",
      '$.secure',
    ]);
    expect(x.texts(`//JSONPostProcessor/${prop('JSONPostProcessor.referenceNames')}`)).toEqual([
      'token',
      'aqa_assert_1',
      'profileId',
      'aqa_assert_2',
      'aqa_assert_5',
    ]);
    // A JSON assertion compares the extracted value: scope "variable", then the operator's test type.
    const assertions = x.nodes('//ResponseAssertion');
    expect(assertions.map((a) => x.texts(prop('Scope.variable'), a)[0] ?? '-')).toEqual([
      'aqa_assert_1',
      'aqa_assert_2',
      '-',
      '-',
      'aqa_assert_5',
    ]);
    expect(assertions.map((a) => x.texts(prop('Assertion.test_type'), a)[0])).toEqual([
      '2',
      '16',
      '8',
      '2',
      '12',
    ]);
    expect(x.texts(`//ThroughputController//value`)).toEqual(['50.0']);
    expect(x.texts(`//ThroughputController/${prop('ThroughputController.style')}`)).toEqual(['1']);
    expect(x.texts(`//TestAction/${prop('ActionProcessor.duration')}`)).toEqual(['200']);
    expect(x.texts(`//DurationAssertion/${prop('DurationAssertion.duration')}`)).toHaveLength(6);
    expect(x.texts(`//RegexExtractor/${prop('RegexExtractor.refname')}`)).toEqual(['aqa_oauth_0', 'ref']);
    expect(x.texts(`//HeaderManager//${prop('Header.value')}`)).toEqual([
      'application/json',
      'Bearer ${token}',
      '${token}',
      'key-123',
      'application/json',
      'Basic YWxpY2U6cEBzczp3b3Jk',
      'Bearer ${aqa_oauth_0}',
    ]);
  });

  it('writes user text that JMeter reads back exactly, with no function call', () => {
    const plan = escapingStaticPlan(BASE);
    const x = jmx(plan);
    const evaluate = jmeterReferences({ picked: '<picked>' });
    // Every string property evaluates with no function other than the generator's own.
    for (const node of x.nodes('//stringProp')) {
      const name = x.attr(node, 'name') ?? '';
      if (name.startsWith('ThreadGroup.')) continue;
      expect(() => jmeterEvaluate(node.textContent ?? '', evaluate), name).not.toThrow();
    }
    const sampler = x.nodes('//HTTPSamplerProxy')[0];
    const read = (query: string, context?: Node) =>
      jmeterEvaluate(x.texts(query, context)[0] ?? '', evaluate);
    expect(read(prop('HTTPSampler.path'), sampler)).toBe('/api/echo/"q"<a>&${__time()}/{{a:b}}/\\/"""/$');
    expect(read(`.//${prop('Argument.value')}`, sampler)).toBe(NASTY.body);
    expect(jmeterEvaluate(x.attr(sampler, 'testname') ?? '', evaluate)).toBe(
      `1. ${plan.urls[0]?.name ?? ''}`,
    );
    expect(read(`//HeaderManager//${prop('Header.value')}`)).toBe(NASTY.header);
    expect(read(`//RegexExtractor/${prop('RegexExtractor.regex')}`)).toBe(plan.urls[0]?.extractValue);
    expect(read(`//ResponseAssertion//${prop('0')}`)).toBe(NASTY.body);
    const second = x.nodes('//HTTPSamplerProxy')[1];
    expect(read(prop('HTTPSampler.path'), second)).toBe('/api/echo/<picked>$');
    expect(read(`(//HeaderManager)[2]//${prop('Header.value')}`)).toBe('cost $$$<picked>');
  });
});

/** One step against `base` with a JSON extraction or assertion on `path`. */
function jsonStepPlan(base: string, step: Partial<PerfPlanInput['urls'][number]>) {
  return PerfPlanSchema.parse({
    name: 'JSON step',
    concurrent_users: 1,
    duration: 1,
    urls: [{ url: `${base}/api/login`, method: 'POST', payload: '{"user":"u1"}', thinkTime: '0', ...step }],
  });
}

const testclasses = (content: string) =>
  [...content.matchAll(/testclass="([A-Za-z]+)"/g)].map((m) => m[1]).filter((c) => c !== undefined);

describe('planToJmx for the installed JMeter version', () => {
  it('writes JSON paths for JMeter 2.13 with Regular Expression Extractors, and no element 2.13 lacks', () => {
    const { files, warnings, unsupported } = planToJmx(jsonFlowPlan(BASE), { jmeterVersion: '2.13' });
    const content = files[0]?.content ?? '';
    expect(unsupported).toEqual([]);
    expect(content).not.toContain('JSONPostProcessor');
    const x = parseXml(content);
    // $.token and $.id extracted; $.user, $['name'] and $.secure asserted on a variable, each reset first.
    expect(x.texts(`//RegexExtractor/${prop('RegexExtractor.refname')}`)).toEqual([
      'aqa_oauth_0',
      'aqa_json_head_1',
      'token',
      'token',
      'aqa_assert_1',
      'aqa_json_head_1',
      'aqa_assert_1',
      'aqa_assert_1',
      'aqa_json_head_2',
      'profileId',
      'profileId',
      'aqa_assert_2',
      'aqa_json_head_2',
      'aqa_assert_2',
      'aqa_assert_2',
      'ref',
      'aqa_assert_5',
      'aqa_json_head_5',
      'aqa_assert_5',
      'aqa_assert_5',
    ]);
    expect(warnings.map((w) => w.field)).toEqual(
      expect.arrayContaining([
        'urls[0].extractValue',
        'urls[0].assertionPath',
        'urls[1].extractValue',
        'urls[1].assertionPath',
        'urls[4].assertionPath',
      ]),
    );
    expect(warnings.find((w) => w.field === 'urls[0].extractValue')?.message).toBe(
      'JMeter 2.13 has no JSON Extractor (JMeter 3.0 and later): $.token is read with a regular expression, which finds it in well-formed JSON with the limits of docs/reference/01-authoring.md §9',
    );
    for (const testclass of testclasses(content)) {
      expect(JMETER_ELEMENTS.find((e) => e.testclass === testclass)?.since, testclass).toBe('2.13');
    }
  });

  it('refuses, naming the step and field, a JSONPath that JMeter 2.13 cannot read with a regular expression', () => {
    const plan = jsonStepPlan(BASE, {
      extractType: 'json',
      extractName: 'first',
      extractValue: '$.items[?(@.x)]',
      assertionType: 'json',
      assertionPath: '$..id',
      assertionValue: '1',
    });
    expect(planToJmx(plan, { jmeterVersion: '2.13' }).unsupported).toEqual([
      {
        field: 'urls[0].extractValue',
        message:
          'JMeter 2.13 cannot read $.items[?(@.x)]: it has no JSON Extractor (JMeter 3.0 and later), and a regular expression stands in only for member and index paths such as $.token, $.data.id or $.items[0].id, while it uses syntax beyond members and indexes',
      },
      {
        field: 'urls[0].assertionPath',
        message:
          'JMeter 2.13 cannot read $..id: it has no JSON Extractor (JMeter 3.0 and later), and a regular expression stands in only for member and index paths such as $.token, $.data.id or $.items[0].id, while it uses the descendant step ..id',
      },
    ]);
    // JMeter 3.0 and later, and a JMeter whose version is unknown, read it with the JSON Extractor.
    for (const jmeterVersion of ['3.0', '5.6.3', null, undefined]) {
      const script = planToJmx(plan, { jmeterVersion });
      expect(script.unsupported, String(jmeterVersion)).toEqual([]);
      expect(script.files[0]?.content).toContain('JSONPostProcessor');
    }
  });

  it('names every element it writes in the version table', () => {
    const known = new Set(JMETER_ELEMENTS.map((e) => e.testclass));
    for (const plan of [...Object.values(CASES), flowPlan(BASE)]) {
      for (const options of [{}, { jmeterVersion: '2.13', errorBodies: true }]) {
        for (const testclass of testclasses(planToJmx(plan, options).files[0]?.content ?? '')) {
          expect(known, testclass).toContain(testclass);
        }
      }
    }
  });

  it('keeps the start of an error answer in a variable only when asked, with extractors every JMeter has', () => {
    expect(planToJmx(flowPlan(BASE)).files[0]?.content).not.toContain(JMETER_ERROR_BODY_VARIABLE);
    const x = jmx2(planToJmx(flowPlan(BASE), { errorBodies: true }).files[0]?.content ?? '');
    expect(
      x.count(`//RegexExtractor[${prop('RegexExtractor.refname')}='${JMETER_ERROR_BODY_VARIABLE}']`),
    ).toBe(6);
  });
});

const jmx2 = (content: string) => parseXml(content);

describe('a generated JMX in JMeter 2.13 (non-GUI)', { timeout: 90_000 }, () => {
  let server: Awaited<ReturnType<typeof startTargetServer>>;
  beforeAll(async () => {
    if (missing) {
      console.warn(`Skipping the JMeter runs: ${missing}`);
      return;
    }
    server = await startTargetServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function run(
    plan: ReturnType<typeof flowPlan>,
    options: { users: number; seconds: number; properties?: Record<string, string> },
    generate: Parameters<typeof planToJmx>[1] = {},
  ) {
    server.target.requests.length = 0;
    server.target.sessions.length = 0;
    server.target.mismatches.length = 0;
    const dir = workDir({ 'plan.jmx': planToJmx(plan, generate).files[0]?.content ?? '' });
    const result = await runJmeter(dir, 'plan.jmx', options);
    const log = readFileSync(join(dir, 'jmeter.log'), 'utf8');
    const jtl = readFileSync(join(dir, 'out.jtl'), 'utf8');
    removeDir(dir);
    expect(log, 'jmeter.log').not.toMatch(/ERROR/);
    expect(result.stdout).toContain('Created the tree successfully');
    return readJtl(jtl);
  }

  it.skipIf(missing)(
    'sends the steps in order with extracted values, sequence numbers and every kind of authorization',
    async () => {
      const samples = await run(flowPlan(server.base), { users: 2, seconds: 3 });
      const { target } = server;
      expect(target.mismatches).toEqual([]);
      expect(samples.filter((s) => !s.success)).toEqual([]);
      expect(target.sessions.length).toBeGreaterThan(4);
      for (const session of target.sessions.slice(0, -2)) {
        expect(session.steps.slice(0, 3)).toEqual(['login', 'profile', 'save']);
      }
      // Each thread runs the plan in order: Login, Profile, Save, (Reference), Secure, Ping, Login, ...
      for (const thread of new Set(samples.map((s) => s.threadName))) {
        const labels = samples
          .filter((s) => s.threadName === thread && s.label !== 'OAuth2 token')
          .map((s) => s.label);
        const order = ['1. Login', '2. Profile', '3. Save profile', '4. Reference', '5. Secure', '6. Ping'];
        const positions = labels.map((l) => order.indexOf(l));
        positions
          .slice(1)
          .forEach((p, i) => expect([0, (positions[i] ?? 0) + 1, (positions[i] ?? 0) + 2]).toContain(p));
      }
      // The Throughput Controller runs the 50 % step in about half of the iterations.
      const logins = samples.filter((s) => s.label === '1. Login').length;
      const refs = samples.filter((s) => s.label === '4. Reference').length;
      expect(refs).toBeGreaterThanOrEqual(Math.floor(logins / 2) - 2);
      expect(refs).toBeLessThanOrEqual(Math.ceil(logins / 2) + 2);
      // The Counter is shared and wraps: logins take 1..5 in turn, each value within one of the others.
      const perValue = [1, 2, 3, 4, 5].map((n) => target.sessions.filter((s) => Number(s.seq) === n).length);
      expect(Math.max(...perValue) - Math.min(...perValue)).toBeLessThanOrEqual(1);
      expect(target.count('POST', '/oauth/token')).toBe(2);
      expect(samples.filter((s) => s.label === '5. Secure').length).toBeGreaterThan(2);
    },
  );

  it.skipIf(missing)(
    'runs one flow per iteration (docs/adr/0027-load-profiles.md "Flows"): 3 : 1 over whole cycles, calls in order',
    async () => {
      const samples = await run(
        weightedFlowsPlan(server.base),
        { users: 2, seconds: 3 },
        { jmeterVersion: '2.13' },
      );
      expect(samples.filter((s) => !s.success)).toEqual([]);
      const count = (label: string) => samples.filter((s) => s.label === label).length;
      const [home, search, item] = [count('1. Home'), count('2. Search'), count('3. Item')];
      expect(home + search).toBeGreaterThan(100);
      // One counter for every thread: each whole cycle of 4 iterations is 3 browse and 1 search; what
      // is off is the last cycle and the iterations cut at the end.
      expect(Math.abs(home - 3 * search)).toBeLessThanOrEqual(3 + 2 * 3);
      // A browse iteration is Home then Item, a search iteration Search alone: within each thread,
      // every Home is followed by Item, and Item comes only after Home.
      for (const thread of new Set(samples.map((s) => s.threadName))) {
        const labels = samples.filter((s) => s.threadName === thread).map((s) => s.label);
        labels.forEach((label, i) => {
          if (label === '1. Home' && i + 1 < labels.length) expect(labels[i + 1]).toBe('3. Item');
          if (label === '3. Item') expect(labels[i - 1]).toBe('1. Home');
        });
      }
      expect(home - item).toBeLessThanOrEqual(2);
    },
  );

  it.skipIf(missing)(
    'sends text that is neither code nor a template exactly as written, and fails a failed assertion',
    async () => {
      const samples = await run(escapingPlan(server.base), { users: 1, seconds: 2 });
      const echo = server.target.requests.find((r) => r.path.startsWith('/api/echo'));
      expect(echo?.path).toBe("/api/echo/cost$5'a");
      expect(echo?.headers['x-nasty']).toBe(NASTY.header);
      expect(echo?.query).toEqual([['q', NASTY.query]]);
      expect(echo?.body).toBe(NASTY.body);
      expect(samples.filter((s) => s.label.startsWith('1. Echo')).every((s) => s.success)).toBe(true);
      const failed = samples.filter((s) => s.label === '2. Must fail its assertion');
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.every((s) => !s.success)).toBe(true);
    },
  );

  it.skipIf(missing)(
    'runs the JSON journey written for 2.13: extracted values reach the next steps and JSON assertions hold',
    async () => {
      const samples = await run(
        jsonFlowPlan(server.base),
        // Long enough for a JVM that starts slowly on a busy machine to reach the later steps.
        { users: 2, seconds: 6 },
        { jmeterVersion: '2.13' },
      );
      // The target answers 409 to a token or profile id that does not belong to the session.
      expect(server.target.mismatches).toEqual([]);
      expect(server.target.count('GET', '/api/profile')).toBeGreaterThan(2);
      expect(server.target.count('PUT', '/api/profiles/')).toBeGreaterThan(2);
      for (const label of ['1. Login', '2. Profile', '5. Secure']) {
        const of = samples.filter((s) => s.label === label);
        expect(of.length, label).toBeGreaterThan(2);
        expect(
          of.filter((s) => !s.success),
          label,
        ).toEqual([]);
      }
    },
  );

  it.skipIf(missing)(
    'fails a JSON assertion written for 2.13 that does not hold, as the engine does',
    async () => {
      const plan = jsonStepPlan(server.base, {
        assertionType: 'json',
        assertionPath: '$.user',
        assertionValue: 'someone else',
      });
      const samples = await run(plan, { users: 1, seconds: 2 }, { jmeterVersion: '2.13' });
      expect(samples.length).toBeGreaterThan(0);
      expect(samples.every((s) => !s.success && /expected to equal/.test(s.failureMessage))).toBe(true);
    },
  );

  it.skipIf(missing)('cannot load the JSON Extractor that JMeter 3.0 added (the version table)', async () => {
    const dir = workDir({ 'plan.jmx': planToJmx(jsonFlowPlan(server.base)).files[0]?.content ?? '' });
    const result = await runJmeter(dir, 'plan.jmx', { users: 1, seconds: 1 });
    const log = readFileSync(join(dir, 'jmeter.log'), 'utf8');
    removeDir(dir);
    expect(`${result.stdout}${log}`).toMatch(/ConversionException[\s\S]*JSONPostProcessor/);
  });

  it.skipIf(missing)(
    'records the start of every error answer in the JTL, and nothing for the others',
    async () => {
      const plan = PerfPlanSchema.parse({
        name: 'Errors',
        concurrent_users: 1,
        duration: 1,
        urls: [
          { url: `${server.base}/api/no-such-route`, thinkTime: '50ms' },
          { url: `${server.base}/api/echo/ok`, thinkTime: '50ms' },
        ],
      });
      const samples = await run(
        plan,
        { users: 1, seconds: 5, properties: { sample_variables: JMETER_ERROR_BODY_VARIABLE } },
        { jmeterVersion: '2.13', errorBodies: true },
      );
      const failed = samples.filter((s) => s.label.startsWith('1.'));
      const ok = samples.filter((s) => s.label.startsWith('2.'));
      expect(failed.length).toBeGreaterThan(0);
      expect(ok.length).toBeGreaterThan(0);
      for (const s of failed) {
        expect(s.responseCode).toBe('404');
        expect(s.fields[JMETER_ERROR_BODY_VARIABLE]).toBe('{"error":"no route GET /api/no-such-route"}');
      }
      for (const s of ok) expect(s.fields[JMETER_ERROR_BODY_VARIABLE]).toBe('');
    },
  );
});

describe('JSON literals in a JMX (docs/design.md §4 "JSON literals")', () => {
  const plan = jsonLiteralsPlan(BASE);

  it('compares the extracted text with the literal: a string unquoted, a number by a pattern of its forms', () => {
    const x = jmx(plan);
    const assertions = x.nodes('//ResponseAssertion');
    expect(assertions.map((a) => x.texts(`${prop('Asserion.test_strings')}/*`, a)[0] ?? '')).toEqual([
      'ada',
      '10(?:\\.0+)?',
      '10\\.50*',
      'true',
      '',
      'ada',
    ]);
    // Equals, Matches, Matches + Not, Equals, Equals, Equals.
    expect(assertions.map((a) => x.texts(prop('Assertion.test_type'), a)[0])).toEqual([
      '8',
      '1',
      '5',
      '8',
      '8',
      '8',
    ]);
    expect(planToJmx(plan).warnings).toContainEqual({
      field: 'urls[4].assertionValue',
      message:
        "JMeter's JSON Extractor writes null as empty text, as it does a path that matches nothing, so a missing value passes this null assertion too",
    });
  });
});
