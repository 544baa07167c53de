import { describe, expect, it } from 'vitest';
import { NASTY, escapingStaticPlan, flowPlan, jsonFlowPlan } from '../../test/plans';
import { soapUiExpand } from '../../test/tool-semantics';
import { parseXml } from '../../test/xml-query';
import { planToSoapUi } from './plan-to-soapui';

const BASE = 'http://127.0.0.1:8080';
const CASES = { flow: flowPlan(BASE), 'json-flow': jsonFlowPlan(BASE), escaping: escapingStaticPlan(BASE) };
const NS = { con: 'http://eviware.com/soapui/config' };

const project = (plan: ReturnType<typeof flowPlan>) =>
  parseXml(planToSoapUi(plan).files[0]?.content ?? '', NS);

describe('planToSoapUi', () => {
  it.each(Object.entries(CASES))('writes the %s project', async (name, plan) => {
    const { files } = planToSoapUi(plan);
    expect(files.map((f) => f.name)).toEqual([expect.stringMatching(/^testplan_soapui_.*\.xml$/)]);
    await expect(files[0]?.content).toMatchFileSnapshot(`./__snapshots__/soapui/${name}.xml`);
  });

  it('is a SoapUI project with an interface, a test suite, a test case of HTTP steps and a load test', () => {
    const x = project(flowPlan(BASE));
    expect(x.count('/con:soapui-project/con:interface/con:endpoints/con:endpoint')).toBe(1);
    const testCase = x.nodes('/con:soapui-project/con:testSuite/con:testCase')[0];
    // The schema's order inside a test case: settings, test steps, load tests, properties.
    expect(x.nodes('*', testCase).map((n) => n.nodeName)).toEqual([
      'con:settings',
      ...Array<string>(x.count('con:testStep', testCase)).fill('con:testStep'),
      'con:loadTest',
      'con:properties',
    ]);
    expect(x.texts('con:testStep/@type', testCase)).toEqual([
      'groovy', // sequence numbers
      'httprequest', // OAuth2 token
      'transfer',
      'httprequest', // 1. Login
      'groovy', // regex extraction
      'httprequest', // 2. Profile
      'groovy', // text extraction
      'delay',
      'httprequest', // 3. Save profile
      'transfer', // xml extraction
      'groovy', // transactionRate
      'httprequest', // 4. Reference
      'delay',
      'httprequest', // 5. Secure
      'httprequest', // 6. Ping
    ]);
    expect(
      x.texts(
        'con:loadTest/con:threadCount | con:loadTest/con:testLimit | con:loadTest/con:limitType',
        testCase,
      ),
    ).toEqual(['2', '60', 'TIME']);
    expect(x.texts('con:properties/con:property/con:name', testCase)).toEqual([
      'token',
      'profileId',
      'ref',
      'aqa_seq_5',
      'aqa_oauth_0',
    ]);
    const step = (name: string) => x.nodes(`con:testStep[@name='${name}']/con:config`, testCase)[0];
    expect(x.attr(step('3. Save profile'), 'method')).toBe('PUT');
    expect(x.texts('con:endpoint', step('3. Save profile'))).toEqual([
      `${BASE}/api/profiles/\${#TestCase#profileId}`,
    ]);
    expect(x.texts('con:assertion/@type', step('3. Save profile'))).toEqual([
      'GroovyScriptAssertion',
      'GroovyScriptAssertion',
      'Response SLA Assertion',
    ]);
    expect(x.texts('con:assertion/@type', step('1. Login'))).toEqual([
      'GroovyScriptAssertion',
      'Valid HTTP Status Codes',
      'Response SLA Assertion',
    ]);
    expect(x.texts('con:assertion/@type', step('2. Profile'))).toEqual([
      'GroovyScriptAssertion',
      'Simple Contains',
      'Response SLA Assertion',
    ]);
    expect(x.texts("con:parameters/con:parameter[con:name='seq']/con:value", step('2. Profile'))).toEqual([
      '${#TestCase#aqa_seq_5}',
    ]);
    expect(
      x.texts('con:transfers/con:type | con:transfers/con:sourcePath', step('3. Save profile - extract ref')),
    ).toEqual(['/result/ref', 'XPATH']);
    expect(x.texts('delay', step('4. Reference - think time'))).toEqual(['100']);
    // transactionRate jumps past the request to a step that exists.
    const jump = x.texts('script', step('4. Reference - transactionRate'))[0] ?? '';
    expect(jump).toContain("if (Math.random() * 100 >= 50) testRunner.gotoStepByName('5. Secure')");
  });

  it('uses JSONPath property transfers and a script assertion for JSON', () => {
    const x = project(jsonFlowPlan(BASE));
    expect(x.texts("//con:testStep[@type='transfer']/con:config/con:transfers/con:sourcePath")).toEqual([
      '$.access_token',
      '$.token',
      '$.id',
    ]);
    const script = x.texts(
      "//con:testStep[@name='1. Login']//con:assertion[@name='json $.user regex ^u\\d+$']//scriptText",
    )[0];
    expect(script).toContain("def actual = jsonText(body, ['k', 'user'], 1) ?: ''");
    expect(script).toContain('assert java.util.regex.Pattern.compile(expected).matcher(actual).find()');
  });

  it('writes user text that SoapUI expands back exactly, with no property or script read', () => {
    const plan = escapingStaticPlan(BASE);
    const x = project(plan);
    const properties: Record<string, string> = {
      '#TestCase#picked': '<picked>',
      '#TestCase#aqa_dollar': '$',
    };
    const expand = (text: string | undefined) => soapUiExpand(text ?? '', (name) => properties[name]);
    const [first, second] = x.nodes("//con:testStep[@type='httprequest']/con:config");
    expect(expand(x.texts('con:endpoint', first)[0])).toBe(plan.urls[0]?.url);
    expect(expand(x.texts('con:request', first)[0])).toBe(NASTY.body);
    const headers = parseXml(x.texts('con:settings/con:setting', first)[0] ?? '', NS);
    expect(expand(x.attr(headers.nodes('//con:entry')[0], 'value'))).toBe(NASTY.header);
    const secondHeaders = parseXml(x.texts('con:settings/con:setting', second)[0] ?? '', NS);
    expect(expand(x.attr(secondHeaders.nodes('//con:entry')[0], 'value'))).toBe('cost $$$<picked>');
    expect(expand(x.texts('con:endpoint', second)[0])).toBe(`${BASE}/api/echo/<picked>$`);
    expect(x.texts("//con:testCase/con:properties/con:property[con:name='aqa_dollar']/con:value")).toEqual([
      '$',
    ]);
  });

  it('warns that SoapUI fetches the OAuth2 token per test-case run', () => {
    expect(planToSoapUi(flowPlan(BASE)).warnings).toEqual([
      {
        field: 'urls[4].authorization',
        message:
          'SoapUI fetches the OAuth2 token at the start of every test-case run (each load-test iteration), not once per user',
      },
    ]);
  });
});
