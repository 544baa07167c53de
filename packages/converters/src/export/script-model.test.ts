import { describe, expect, it } from 'vitest';
import { PerfPlanSchema, type PerfPlanInput } from '@aqa/plan';
import { scriptFileName } from './file-name';
import { buildScriptModel } from './script-model';
import { flowPlan } from '../../test/plans';

const plan = (urls: PerfPlanInput['urls'], extra: Partial<PerfPlanInput> = {}) =>
  PerfPlanSchema.parse({ name: 'P', urls, ...extra });

describe('buildScriptModel', () => {
  it('applies the plan: blank pairs dropped, auth as header or query, content type inferred, ms units', () => {
    const model = buildScriptModel(flowPlan('http://h.test'));
    expect(model).toMatchObject({ name: 'Checkout flow', users: 2, durationS: 60 });
    const [login, profile, save, ref, secure, ping] = model.steps;
    expect(login?.headers).toEqual([
      { name: 'Content-Type', value: [{ kind: 'text', text: 'application/json' }] },
    ]);
    expect(login?.body).toEqual([
      { kind: 'text', text: '{"user":"u' },
      { kind: 'seq', max: 5, ident: 'aqa_seq_5' },
      { kind: 'text', text: '"}' },
    ]);
    expect(profile?.query).toEqual([{ name: 'seq', value: [{ kind: 'seq', max: 5, ident: 'aqa_seq_5' }] }]);
    expect(profile?.headers[0]?.value).toEqual([
      { kind: 'text', text: 'Bearer ' },
      { kind: 'var', name: 'token', ident: 'token', raw: '{{token}}' },
    ]);
    expect(profile?.thinkTimeMs).toBe(100);
    expect(save?.headers.map((h) => h.name)).toEqual(['X-Session-Token', 'X-Api-Key', 'Content-Type']);
    expect(ref?.headers).toEqual([
      { name: 'Authorization', value: [{ kind: 'text', text: 'Basic YWxpY2U6cEBzczp3b3Jk' }] },
    ]);
    expect(ref).toMatchObject({ ratePercent: 50, thinkTimeMs: 100, timeoutMs: 30_000 });
    expect(secure?.oauthClient).toBe(0);
    expect(ping?.query).toEqual([{ name: 'api_key', value: [{ kind: 'text', text: 'q-456' }] }]);
    expect(model.oauthClients).toEqual([
      {
        ident: 'aqa_oauth_0',
        clientId: 'client-1',
        clientSecret: 's3cr:et$${x}&=',
        tokenUrl: 'http://h.test/oauth/token',
        scope: '',
      },
    ]);
    expect(model.sequences).toEqual([{ max: 5, ident: 'aqa_seq_5' }]);
    expect(model.variables.map((v) => v.name)).toEqual(['token', 'profileId', 'ref']);
    expect(model.warnings).toEqual([]);
  });

  it('sends unknown {{variables}} as written, with a warning naming the field', () => {
    const model = buildScriptModel(plan([{ url: 'http://h.test/{{nobody}}', payload: 'x' }]));
    expect(model.steps[0]?.url).toEqual([{ kind: 'text', text: 'http://h.test/{{nobody}}' }]);
    expect(model.warnings).toEqual([
      { field: 'urls[0].url', message: '{{nobody}} is not extracted by any step, so it is sent as written' },
    ]);
  });

  it('warns when a variable is used before the step that extracts it', () => {
    const model = buildScriptModel(
      plan([
        { url: 'http://h.test/{{id}}' },
        { url: 'http://h.test/b', extractType: 'json', extractName: 'id', extractValue: '$.id' },
      ]),
    );
    expect(model.warnings.map((w) => w.field)).toEqual(['urls[0].url']);
  });

  it('leaves out incomplete authorization, extraction and assertion, saying which field', () => {
    const model = buildScriptModel(
      plan([
        {
          url: 'http://h.test',
          authorization: { type: 'basic', username: 'u' },
          extractType: 'json',
          extractName: 'x',
          assertionType: 'json',
          assertionValue: '1',
        },
      ]),
    );
    expect(model.steps[0]).toMatchObject({ headers: [], extraction: undefined, assertion: undefined });
    expect(model.warnings).toEqual([
      { field: 'urls[0].authorization', message: 'basic authorization is left out: password is blank' },
      { field: 'urls[0].assertionPath', message: 'The json assertion has no path, so it is left out' },
      { field: 'urls[0].extractValue', message: 'The json extraction of x has no path, so it is left out' },
    ]);
  });

  it('lets the authorization replace an Authorization header, and sends no body for GET', () => {
    const model = buildScriptModel(
      plan([
        {
          url: 'http://h.test',
          payload: '{"ignored":true}',
          headers: [{ name: 'authorization', value: 'old' }],
          authorization: { type: 'bearer', token: 'new' },
        },
      ]),
    );
    expect(model.steps[0]?.body).toBeUndefined();
    expect(model.steps[0]?.headers).toEqual([
      {
        name: 'Authorization',
        value: [
          { kind: 'text', text: 'Bearer ' },
          { kind: 'text', text: 'new' },
        ],
      },
    ]);
    expect(model.warnings[0]?.field).toBe('urls[0].headers');
  });

  it('gives variables names every tool accepts, without clashing', () => {
    const model = buildScriptModel(
      plan([
        { url: 'http://h.test', extractName: 'a.b', extractType: 'text' },
        { url: 'http://h.test', extractName: 'a_b', extractType: 'text' },
        { url: 'http://h.test', extractName: 'aqa_seq_5', extractType: 'text' },
      ]),
    );
    expect(model.variables).toEqual([
      { name: 'a.b', ident: 'a_b' },
      { name: 'a_b', ident: 'a_b_2' },
      { name: 'aqa_seq_5', ident: 'v_aqa_seq_5' },
    ]);
  });
});

describe('scriptFileName', () => {
  it('names files testplan_{tool}_{plan}.{ext} with a safe plan name', () => {
    expect(scriptFileName('jmeter', 'Checkout flow')).toBe('testplan_jmeter_Checkout_flow.jmx');
    expect(scriptFileName('k6', '../../etc/passwd')).toBe('testplan_k6_etc_passwd.js');
    expect(scriptFileName('locust', 'Café ✓')).toBe('testplan_locust_Cafe.py');
    expect(scriptFileName('k6', 'Ünïcode École')).toBe('testplan_k6_Unicode_Ecole.js');
    expect(scriptFileName('k6', '결제 테스트')).toBe('testplan_k6_결제_테스트.js');
    expect(scriptFileName('taurus', '  ')).toBe('testplan_taurus_current.yml');
    expect(scriptFileName('soapui', undefined)).toBe('testplan_soapui_current.xml');
  });
});
