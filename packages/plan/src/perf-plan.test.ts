import { describe, expect, it } from 'vitest';
import {
  PerfPlanSchema,
  ScriptRequestSchema,
  UrlEntrySchema,
  ValidationResponseSchema,
  effectiveAuthorization,
  missingAuthorizationFields,
  resultStatusLabel,
  transactionRatePercent,
  type Authorization,
} from './perf-plan';
import { describeIssues } from './migrate-plan';

const minimal = { name: 'Checkout', urls: [{ url: 'https://shop.test/api' }] };

function issues(input: unknown) {
  const result = PerfPlanSchema.safeParse(input);
  if (result.success) throw new Error('expected the plan to be refused');
  return describeIssues(result.error);
}

const auth = (fields: Partial<Authorization>): Authorization => ({
  type: 'none',
  token: '',
  username: '',
  password: '',
  keyName: '',
  keyValue: '',
  in: 'header',
  tokenUrl: '',
  scope: '',
  ...fields,
});

describe('PerfPlanSchema defaults', () => {
  it('fills the spec defaults: JMeter, 10 users, 1 minute, url-input', () => {
    const plan = PerfPlanSchema.parse(minimal);
    expect(plan).toMatchObject({
      schema_version: 1,
      tool: 'jmeter',
      concurrent_users: 10,
      duration: 1,
      source_page: 'url-input',
    });
  });

  it('fills a URL entry: GET, text extraction, json/equals assertion, 5 s think time, 30 s timeout', () => {
    const entry = PerfPlanSchema.parse(minimal).urls[0];
    expect(entry).toEqual({
      method: 'GET',
      url: 'https://shop.test/api',
      parameters: [],
      headers: [],
      authorization: auth({}),
      payload: '',
      extractType: 'text',
      extractName: '',
      extractValue: '',
      thinkTime: '5s',
      transactionRate: '',
      assertionType: 'json',
      assertionPath: '',
      assertionValue: '',
      assertionOperator: 'equals',
      timeout: 30,
      validations: [],
    });
  });

  it('accepts the tool in any case and writes it lower-case', () => {
    expect(PerfPlanSchema.parse({ ...minimal, tool: 'K6' }).tool).toBe('k6');
    expect(PerfPlanSchema.parse({ ...minimal, tool: ' SoapUI ' }).tool).toBe('soapui');
  });
});

describe('PerfPlanSchema bounds', () => {
  it('reads a URL in time linear in its length: 100 URLs of 8000 characters that fail at their end', () => {
    // The URL shape once tried every split of such a URL (docs/adr/0022-linear-time-patterns.md).
    const url = `HTTP://${':'.repeat(8000)} x`;
    const started = Date.now();
    const found = issues({ ...minimal, urls: Array.from({ length: 100 }, () => ({ url })) });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(found).toHaveLength(100);
    expect(found[0]).toEqual({
      field: 'urls[0].url',
      message: 'Enter a full URL starting with http:// or https:// (or with a {{variable}})',
    });
    expect(
      PerfPlanSchema.safeParse({ ...minimal, urls: [{ url: `https://a${':'.repeat(8000)}` }] }).success,
    ).toBe(true);
  });

  it('names the field and the rule for users and duration out of range', () => {
    expect(issues({ ...minimal, concurrent_users: 0, duration: 1441 })).toEqual([
      { field: 'concurrent_users', message: 'Concurrent users must be a whole number from 1 to 1000' },
      { field: 'duration', message: 'Duration must be a whole number of minutes from 1 to 1440' },
    ]);
    expect(issues({ ...minimal, concurrent_users: 1001 })[0]?.field).toBe('concurrent_users');
    expect(issues({ ...minimal, concurrent_users: 2.5 })[0]?.field).toBe('concurrent_users');
  });

  it('refuses a plan without a name or URLs with the spec messages', () => {
    expect(issues({ name: '  ', urls: [] })).toEqual([
      { field: 'name', message: 'Please enter a plan name' },
      { field: 'urls', message: 'Please enter at least one valid URL' },
    ]);
  });

  it('reports every problem of every URL entry at once, with its path', () => {
    const found = issues({
      ...minimal,
      tool: 'gatling',
      urls: [
        { url: 'ftp://x', method: 'FETCH' },
        { url: 'https://a.test', thinkTime: '2 minutes', transactionRate: 150, extractName: 'my token' },
      ],
    });
    expect(found.map((i) => i.field)).toEqual([
      'tool',
      'urls[0].method',
      'urls[0].url',
      'urls[1].extractName',
      'urls[1].thinkTime',
      'urls[1].transactionRate',
    ]);
    expect(found[0]?.message).toBe('Tool must be one of jmeter, k6, locust, taurus, soapui');
  });

  it('accepts a URL that starts with a template', () => {
    expect(UrlEntrySchema.parse({ url: '{{base}}/users' }).url).toBe('{{base}}/users');
  });

  it('falls back to a 30 s timeout for an invalid value and keeps a valid one', () => {
    const timeout = (value: unknown) =>
      UrlEntrySchema.parse({ url: 'http://a.test', timeout: value }).timeout;
    expect(timeout(0)).toBe(30);
    expect(timeout(301)).toBe(30);
    expect(timeout('abc')).toBe(30);
    expect(timeout(null)).toBe(30);
    expect(timeout('45')).toBe(45);
    expect(timeout(300)).toBe(300);
  });

  it('reads the transaction rate as a number or numeric text, blank meaning 100', () => {
    const rate = (value: unknown) =>
      UrlEntrySchema.parse({ url: 'http://a.test', transactionRate: value }).transactionRate;
    expect(rate('25.5')).toBe(25.5);
    expect(rate(0)).toBe(0);
    expect(rate('')).toBe('');
    expect(rate(null)).toBe('');
    expect(transactionRatePercent(rate(''))).toBe(100);
    expect(transactionRatePercent(rate('40'))).toBe(40);
    expect(UrlEntrySchema.safeParse({ url: 'http://a.test', transactionRate: '-1' }).success).toBe(false);
  });

  it('refuses a header value with a line break and a header name with spaces', () => {
    const result = UrlEntrySchema.safeParse({
      url: 'http://a.test',
      headers: [
        { name: 'X Bad', value: 'ok' },
        { name: 'X-Ok', value: 'a\r\nInjected: yes' },
      ],
    });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(describeIssues(result.error).map((i) => i.field)).toEqual([
        'headers[0].name',
        'headers[1].value',
      ]);
    }
  });

  it('reads {name,value} parameters and {key,value} headers', () => {
    const entry = UrlEntrySchema.parse({
      url: 'http://a.test',
      parameters: [
        { name: 'page', value: '2' },
        { key: 'size', value: '10' },
      ],
      headers: [{ key: 'Accept', value: 'application/json' }],
    });
    expect(entry.parameters).toEqual([
      { key: 'page', value: '2' },
      { key: 'size', value: '10' },
    ]);
    expect(entry.headers).toEqual([{ name: 'Accept', value: 'application/json' }]);
  });

  it('accepts apikey as api_key and checks validation items', () => {
    const entry = UrlEntrySchema.parse({
      url: 'http://a.test',
      authorization: { type: 'apikey', keyName: 'X-Key', keyValue: 'k' },
      validations: [{ id: 7, name: 'Validation 1', type: 'status_code', expected_value: ' 200 ' }],
    });
    expect(entry.authorization.type).toBe('api_key');
    expect(entry.validations[0]).toEqual({
      id: '7',
      name: 'Validation 1',
      type: 'status_code',
      expected_value: '200',
      description: '',
    });
    expect(
      UrlEntrySchema.safeParse({
        url: 'http://a.test',
        validations: [{ id: '1', type: 'json_path', expected_value: '   ' }],
      }).success,
    ).toBe(false);
  });
});

describe('effectiveAuthorization (docs/reference/01-authoring.md §5)', () => {
  it('includes authorization only when every required field is filled', () => {
    expect(effectiveAuthorization(auth({ type: 'bearer', token: ' abc ' }))).toEqual({
      type: 'bearer',
      token: 'abc',
    });
    expect(effectiveAuthorization(auth({ type: 'bearer' }))).toBeNull();
    expect(effectiveAuthorization(auth({ type: 'basic', username: 'u' }))).toBeNull();
    expect(missingAuthorizationFields(auth({ type: 'basic', username: 'u' }))).toEqual(['password']);
    expect(
      effectiveAuthorization(auth({ type: 'api_key', keyName: 'k', keyValue: 'v', in: 'query' })),
    ).toEqual({
      type: 'api_key',
      keyName: 'k',
      keyValue: 'v',
      in: 'query',
    });
    expect(missingAuthorizationFields(auth({ type: 'api_key', keyName: 'k' }))).toEqual(['keyValue']);
  });

  it('splits the OAuth2 client id and secret at the first colon and needs the token URL', () => {
    expect(
      effectiveAuthorization(
        auth({ type: 'oauth2', token: 'id:se:cret', tokenUrl: 'https://id.test/token' }),
      ),
    ).toEqual({
      type: 'oauth2',
      clientId: 'id',
      clientSecret: 'se:cret',
      tokenUrl: 'https://id.test/token',
      scope: '',
    });
    expect(missingAuthorizationFields(auth({ type: 'oauth2', token: 'id' }))).toEqual([
      'token (client secret)',
      'tokenUrl',
    ]);
  });
});

describe('request and response schemas', () => {
  it('lets generate-script requests omit the plan name', () => {
    const request = ScriptRequestSchema.parse({ urls: [{ url: 'http://a.test' }], tool: 'Locust' });
    expect(request).toMatchObject({ tool: 'locust', concurrent_users: 10, duration: 1 });
    expect(request.name).toBeUndefined();
  });

  it('parses a validation response and labels statuses as the spec shows them', () => {
    const response = ValidationResponseSchema.parse({
      total_apis: 1,
      successful: 1,
      failed: 0,
      api_results: [
        {
          status: 'success',
          method: 'GET',
          url: 'http://a.test',
          response_time: 12.5,
          response_status: 200,
          error: null,
        },
      ],
    });
    expect(response.api_results[0]?.status).toBe('success');
    expect([resultStatusLabel('success'), resultStatusLabel('error'), resultStatusLabel('skipped')]).toEqual([
      'PASS',
      'FAIL',
      'WARNING',
    ]);
  });
});
