import { describe, expect, it } from 'vitest';
import { fixture } from '../../test/fixtures';
import { harToPlan } from './har-to-plan';
import { ImportError } from './import-model';

const har = (entries: unknown[]) => ({
  name: 'r.har',
  text: JSON.stringify({ log: { version: '1.2', entries } }),
});

describe('harToPlan', () => {
  it('imports the entries in order with their bodies, names and the har-to-k6 checks, variables and sleeps', () => {
    const result = harToPlan(fixture('har/har-to-k6/example/full.har'));
    expect(result.info).toMatchObject({ kind: 'HAR', requests: 8, pages: 3, methods: { POST: 4, GET: 4 } });
    const [login, home, about, user] = result.steps;
    expect(login).toMatchObject({
      name: 'Acquire auth token',
      method: 'POST',
      url: 'https://httpbin.org/post',
      payload: '92n2nf093n',
      extractType: 'json',
      extractName: 'token',
      extractValue: '$.data',
    });
    expect(home).toMatchObject({
      url: 'https://httpbin.org/get',
      parameters: [{ key: 'page', value: 'Home' }],
    });
    expect(about).toMatchObject({
      assertionType: 'text',
      assertionOperator: 'contains',
      assertionValue: 'AboutZipcurve',
    });
    // ${token} refers to the variable an earlier entry extracts: the plan writes it {{token}}.
    expect(user?.headers).toEqual([{ name: 'Authorization', value: 'Bearer {{token}}' }]);
    // An earlier call gives {{token}} its value, so it is not a value the user must fill in.
    expect(result.needsValue.map((v) => v.name)).not.toContain('token');

    const sleep = harToPlan(fixture('har/har-to-k6/example/sleep.har'));
    // A recording's calls pause only where har-to-k6's sleep says so; the others get no think time.
    expect(sleep.steps.map((s) => s.thinkTime)).toEqual(['1200ms', '920ms', '1200ms', '0', '0']);
  });

  it('drops cookies, HTTP/2 pseudo-headers and the headers the client sets itself', () => {
    const result = harToPlan(
      har([
        {
          request: {
            method: 'GET',
            url: 'https://h/a',
            headers: [
              { name: ':authority', value: 'h' },
              { name: ':path', value: '/a' },
              { name: 'cookie', value: 's=1' },
              { name: 'Host', value: 'h' },
              { name: 'content-length', value: '0' },
              { name: 'Accept', value: 'text/html' },
            ],
          },
        },
      ]),
    );
    expect(result.steps[0]?.headers).toEqual([{ name: 'Accept', value: 'text/html' }]);
  });

  it('keeps query parameters once, from the URL, even when queryString repeats them', () => {
    const result = harToPlan(
      fixture('har/har-to-k6/test/e2e/pass/issue-58_url-search-params-double-inclusion.har'),
    );
    expect(result.steps[0]?.parameters).toEqual([
      { key: 'param1', value: 'param1-value' },
      { key: 'param2', value: 'param2-value' },
      { key: 'json-uri', value: '{"value":true}' },
    ]);
  });

  it('writes form parameters as the body, keeping a recorded multipart boundary', () => {
    const form = harToPlan(fixture('har/har-to-k6/test/e2e/pass/x-www-form-url-encoded.har')).steps[0];
    expect(form?.payload).toMatch(/^[^=&]+=[^&]*(&[^=&]+=[^&]*)*$/);
    const multipart = harToPlan(fixture('har/har-to-k6/test/e2e/pass/multipart-formdata.har')).steps[0];
    expect(multipart?.headers).toContainEqual({
      name: 'Content-Type',
      value: 'multipart/form-data; boundary=---boundary',
    });
    expect(multipart?.payload).toBe(
      '-----boundary\r\nContent-Disposition: form-data; name="hello"\r\n\r\nworld\r\n-----boundary--\r\n',
    );
  });

  it('takes a single HAR request object as one step', () => {
    const result = harToPlan(fixture('har/har-validator/request/valid.json'));
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]).toMatchObject({
      method: 'GET',
      url: 'http://mockbin.com/',
      headers: [
        { name: 'DNT', value: '1' },
        { name: 'Accept-Encoding', value: 'gzip, deflate, sdch' },
      ],
    });
  });

  it('refuses JSON that is not a HAR, naming its keys', () => {
    expect(() => harToPlan(fixture('har/har-validator/har/invalid.json'))).toThrow(
      new ImportError(
        'invalid.json',
        'this is not a HAR file: it has no "log" object with "entries" (its top-level keys are creator, date, version)',
      ),
    );
  });
});
