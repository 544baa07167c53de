import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR, fixture } from '../../test/fixtures';
import { importFile } from './import-file';
import { ImportError, type ImportResult } from './import-model';
import { openApiToPlan } from './openapi-to-plan';

/**
 * An imported OpenAPI plan must run as it stands: parameters carry only values the document gives,
 * written by the document's styles; a value it does not give is a {{variable}} named in needsValue,
 * never a type word; form bodies follow the media type's encoding; imported calls do not pause.
 */

const doc = (spec: Record<string, unknown>) => ({ name: 'api.json', text: JSON.stringify(spec) });
const v3 = (paths: Record<string, unknown>) =>
  doc({
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    servers: [{ url: 'https://api.test' }],
    paths,
  });
const ok = { 200: { description: 'ok' } };
const get = (parameters: unknown[]) => ({ get: { parameters, responses: ok } });

const TYPE_WORDS = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array']);

/** The decoded segments of a step's URL path. */
function segments(url: string): string[] {
  const path = url.replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/^\{\{[^}]*\}\}/, '');
  return path.split('/').map((s) => decodeURIComponent(s));
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Every OpenAPI / Swagger fixture that imports on its own, with what it became. */
function importedFixtures(): { file: string; result: ImportResult; text: string }[] {
  const out: { file: string; result: ImportResult; text: string }[] = [];
  for (const path of walk(join(FIXTURES_DIR, 'openapi'))) {
    const file = relative(FIXTURES_DIR, path);
    try {
      const source = fixture(file);
      const result = importFile(source);
      if (result.info.format === 'swagger')
        out.push({ file, result, text: new TextDecoder().decode(source.bytes) });
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
    }
  }
  return out;
}

describe('imported OpenAPI fixtures run as they stand', () => {
  const imported = importedFixtures();

  it('imports a good number of real documents to check', () => {
    expect(imported.length).toBeGreaterThan(30);
  });

  it('sends no type word ("string", "integer") as a path segment, parameter or header value', () => {
    const offenders: string[] = [];
    for (const { file, result, text } of imported) {
      result.steps.forEach((step, i) => {
        const written = new Set(segments(result.sources[i]?.path ?? ''));
        for (const segment of segments(step.url)) {
          if (TYPE_WORDS.has(segment) && !written.has(segment)) offenders.push(`${file}: ${step.url}`);
        }
        for (const { key, value } of step.parameters) {
          // Only where the document itself never writes that word as a value.
          if (TYPE_WORDS.has(value) && !text.includes(`: ${value}`) && !text.includes(`"${value}"`))
            offenders.push(`${file}: ${key}=${value}`);
        }
        for (const { name, value } of step.headers) {
          if (TYPE_WORDS.has(value)) offenders.push(`${file}: ${name}: ${value}`);
        }
      });
    }
    expect(offenders).toEqual([]);
  });

  it('lists every {{variable}} a call sends in needsValue, with that call', () => {
    for (const { result } of imported) {
      result.steps.forEach((step, i) => {
        const source = result.sources[i];
        const texts = [
          step.url,
          ...step.parameters.map((p) => p.value),
          ...step.headers.map((h) => h.value),
          step.payload,
        ];
        for (const name of texts.flatMap((t) =>
          [...t.matchAll(/\{\{([A-Za-z_][\w.-]*)\}\}/g)].map((m) => m[1]),
        )) {
          const needed = result.needsValue.find((v) => v.name === name);
          expect(needed?.calls).toContain(`${source?.method} ${source?.path}`);
        }
      });
    }
  });

  it('gives no imported call a think time', () => {
    for (const { result } of imported) {
      expect(result.steps.filter((s) => s.thinkTime !== '0').map((s) => s.url)).toEqual([]);
    }
  });

  it('Trello (Swagger 2): the 310 operations with path parameters hold variables, the other 14 none', () => {
    const result = openApiToPlan(fixture('openapi/large/trello-1.0.yaml'));
    expect(result.steps).toHaveLength(324);
    // Trello's path parameters carry no example, default or enum (counted from the YAML).
    const inPath = result.steps.filter((s) =>
      /\{\{\w+\}\}/.test(s.url.replace(/^https:\/\/trello\.com\/1/, '')),
    );
    expect(inPath).toHaveLength(310);
    expect(result.needsValue.map((v) => v.name)).toContain('idBoard');
    const board = result.needsValue.find((v) => v.name === 'idBoard');
    expect(board?.calls).toContain('GET /boards/{idBoard}');
  });

  it('Petstore v3: 9 calls need petId, orderId or username; 10 run with what the document gives', () => {
    const result = openApiToPlan(fixture('openapi/swagger-petstore/v3-openapi.yaml'));
    const withVariable = result.steps.filter((s) => s.url.includes('{{'));
    expect(
      withVariable.map((s) => `${s.method} ${s.url.replace('https://petstore3.swagger.io/api/v3', '')}`),
    ).toEqual([
      'GET /pet/{{petId}}',
      'POST /pet/{{petId}}',
      'DELETE /pet/{{petId}}',
      'POST /pet/{{petId}}/uploadImage',
      'GET /store/order/{{orderId}}',
      'DELETE /store/order/{{orderId}}',
      'GET /user/{{username}}',
      'PUT /user/{{username}}',
      'DELETE /user/{{username}}',
    ]);
    expect(result.steps.length - withVariable.length).toBe(10);
    expect(result.needsValue.map((v) => [v.name, v.calls.length])).toEqual([
      ['petId', 4],
      ['orderId', 2],
      ['username', 3],
    ]);
    // findByStatus's status has a default; findByTags's tags has none and is optional, so it is not sent.
    const byStatus = result.steps.find((s) => s.url.endsWith('/pet/findByStatus'));
    expect(byStatus?.parameters).toEqual([{ key: 'status', value: 'available' }]);
    const byTags = result.steps.find((s) => s.url.endsWith('/pet/findByTags'));
    expect(byTags?.parameters).toEqual([]);
  });
});

describe('parameter values', () => {
  it('takes the parameter example, then its first examples entry, the schema example, default, first enum value', () => {
    const [step] = openApiToPlan(
      v3({
        '/a/{p1}/{p2}/{p3}/{p4}/{p5}': get([
          {
            name: 'p1',
            in: 'path',
            required: true,
            example: 'e1',
            schema: { type: 'string', example: 'no' },
          },
          {
            name: 'p2',
            in: 'path',
            required: true,
            examples: { first: { value: 'e2' }, second: { value: 'no' } },
            schema: { type: 'string', default: 'no' },
          },
          { name: 'p3', in: 'path', required: true, schema: { type: 'integer', example: 3, default: 9 } },
          { name: 'p4', in: 'path', required: true, schema: { type: 'integer', default: 4, enum: [9] } },
          // A format is no value: a made-up uuid would only find nothing.
          { name: 'p5', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        ]),
      }),
    ).steps;
    expect(step?.url).toBe('https://api.test/a/e1/e2/3/4/{{p5}}');
    const [withRef] = openApiToPlan(
      doc({
        openapi: '3.1.0',
        info: { title: 'T', version: '1' },
        servers: [{ url: 'https://api.test' }],
        paths: {
          '/k/{kind}': get([
            { name: 'kind', in: 'path', required: true, schema: { $ref: '#/components/schemas/Kind' } },
          ]),
        },
        components: { schemas: { Kind: { type: 'string', enum: ['card', 'bank'] } } },
      }),
    ).steps;
    expect(withRef?.url).toBe('https://api.test/k/card');
  });

  it('takes Swagger 2 x-example, default and enum; a required one without any is a {{variable}}', () => {
    const result = openApiToPlan(
      doc({
        swagger: '2.0',
        info: { title: 'T', version: '1' },
        host: 'api.test',
        paths: {
          '/users/{user-id}': {
            get: {
              parameters: [
                { name: 'user-id', in: 'path', required: true, type: 'string', 'x-example': 'u-7' },
                { name: 'fields', in: 'query', required: true, type: 'string', enum: ['id', 'name'] },
                { name: 'X-Tenant', in: 'header', required: true, type: 'string' },
                { name: 'page', in: 'query', type: 'integer' },
              ],
              responses: ok,
            },
          },
        },
      }),
    );
    expect(result.steps[0]).toMatchObject({
      url: 'https://api.test/users/u-7',
      parameters: [{ key: 'fields', value: 'id' }],
      headers: [{ name: 'X-Tenant', value: '{{X-Tenant}}' }],
    });
    expect(result.needsValue).toEqual([{ name: 'X-Tenant', calls: ['GET /users/{user-id}'] }]);
  });

  it('makes a variable name of a parameter name the plan cannot use as one', () => {
    const [step] = openApiToPlan(
      v3({
        '/x/{2nd id}': get([{ name: '2nd id', in: 'path', required: true, schema: { type: 'string' } }]),
      }),
    ).steps;
    expect(step?.url).toBe('https://api.test/x/{{_2nd_id}}');
  });
});

describe('parameter styles', () => {
  const param = (name: string, where: string, extra: Record<string, unknown>) => ({
    name,
    in: where,
    required: true,
    ...extra,
  });
  const arr = { type: 'array', items: { type: 'string' }, example: ['a', 'b'] };
  const obj = { type: 'object', example: { role: 'admin', first: 'Al' } };

  it('writes path parameters by the simple, label and matrix styles, exploded or not', () => {
    const [step] = openApiToPlan(
      v3({
        '/s/{s1}/{s2}/{s3}/l/{l1}/{l2}/m/{m1}{m2}{m3}{m4}': get([
          param('s1', 'path', { schema: arr }),
          param('s2', 'path', { schema: obj }),
          param('s3', 'path', { schema: obj, explode: true }),
          param('l1', 'path', { schema: arr, style: 'label' }),
          param('l2', 'path', { schema: arr, style: 'label', explode: true }),
          param('m1', 'path', { schema: { type: 'integer', example: 5 }, style: 'matrix' }),
          param('m2', 'path', { schema: arr, style: 'matrix' }),
          param('m3', 'path', { schema: arr, style: 'matrix', explode: true }),
          param('m4', 'path', { schema: obj, style: 'matrix', explode: true }),
        ]),
      }),
    ).steps;
    expect(step?.url).toBe(
      'https://api.test/s/a,b/role,admin,first,Al/role=admin,first=Al/l/.a,b/.a.b/m/;m1=5;m2=a,b;m3=a;m3=b;role=admin;first=Al',
    );
  });

  it('writes query parameters by the form, spaceDelimited, pipeDelimited and deepObject styles', () => {
    const [step] = openApiToPlan(
      v3({
        '/q': get([
          param('f', 'query', { schema: arr }),
          param('g', 'query', { schema: arr, explode: false }),
          param('o', 'query', { schema: obj, explode: false }),
          param('sp', 'query', { schema: arr, style: 'spaceDelimited', explode: false }),
          param('pi', 'query', { schema: arr, style: 'pipeDelimited', explode: false }),
          param('created', 'query', {
            schema: { type: 'object', example: { gt: 1, lt: 9 } },
            style: 'deepObject',
            explode: true,
          }),
          param('expand', 'query', { schema: arr, style: 'deepObject', explode: true }),
          param('e', 'query', { schema: obj }),
        ]),
      }),
    ).steps;
    expect(step?.parameters).toEqual([
      { key: 'f', value: 'a' },
      { key: 'f', value: 'b' },
      { key: 'g', value: 'a,b' },
      { key: 'o', value: 'role,admin,first,Al' },
      { key: 'sp', value: 'a b' },
      { key: 'pi', value: 'a|b' },
      { key: 'created[gt]', value: '1' },
      { key: 'created[lt]', value: '9' },
      { key: 'expand[0]', value: 'a' },
      { key: 'expand[1]', value: 'b' },
      { key: 'role', value: 'admin' },
      { key: 'first', value: 'Al' },
    ]);
  });

  it('writes Swagger 2 arrays by collectionFormat: csv, ssv, tsv, pipes and multi', () => {
    const items = { type: 'array', items: { type: 'string' }, default: ['a', 'b'] };
    const [step] = openApiToPlan(
      doc({
        swagger: '2.0',
        info: { title: 'T', version: '1' },
        host: 'api.test',
        paths: {
          '/c/{ids}': {
            get: {
              parameters: [
                { name: 'ids', in: 'path', required: true, ...items },
                { name: 'csv', in: 'query', required: true, ...items },
                { name: 'ssv', in: 'query', required: true, ...items, collectionFormat: 'ssv' },
                { name: 'tsv', in: 'query', required: true, ...items, collectionFormat: 'tsv' },
                { name: 'pipes', in: 'query', required: true, ...items, collectionFormat: 'pipes' },
                { name: 'multi', in: 'query', required: true, ...items, collectionFormat: 'multi' },
              ],
              responses: ok,
            },
          },
        },
      }),
    ).steps;
    expect(step?.url).toBe('https://api.test/c/a,b');
    expect(step?.parameters).toEqual([
      { key: 'csv', value: 'a,b' },
      { key: 'ssv', value: 'a b' },
      { key: 'tsv', value: 'a\tb' },
      { key: 'pipes', value: 'a|b' },
      { key: 'multi', value: 'a' },
      { key: 'multi', value: 'b' },
    ]);
  });
});

/**
 * The shape of Stripe's form operations (written here, not copied): a body in
 * application/x-www-form-urlencoded whose encoding gives the nested fields the deepObject style.
 */
const stripeLike = {
  openapi: '3.0.0',
  info: { title: 'Stripe-like', version: '1' },
  servers: [{ url: 'https://api.stripe.test/' }],
  paths: {
    '/v1/customers/{customer}/sources': {
      post: {
        parameters: [
          {
            in: 'path',
            name: 'customer',
            required: true,
            schema: { type: 'string', maxLength: 5000 },
            style: 'simple',
          },
        ],
        requestBody: {
          required: false,
          content: {
            'application/x-www-form-urlencoded': {
              encoding: {
                bank_account: { explode: true, style: 'deepObject' },
                expand: { explode: true, style: 'deepObject' },
                metadata: { explode: true, style: 'deepObject' },
              },
              schema: {
                type: 'object',
                properties: {
                  bank_account: {
                    anyOf: [
                      {
                        type: 'object',
                        properties: {
                          account_holder_name: { type: 'string', example: 'Jenny Rosen' },
                          account_holder_type: { type: 'string', enum: ['company', 'individual'] },
                          country: { type: 'string', example: 'US' },
                        },
                      },
                      { type: 'string' },
                    ],
                  },
                  expand: { type: 'array', items: { type: 'string', example: 'customer' } },
                  metadata: { type: 'object', example: { order_id: '6735' } },
                  tags: { type: 'array', items: { type: 'string', example: 'vip' } },
                  source: { type: 'string', example: 'tok_visa' },
                  options: { type: 'object', properties: { validate: { type: 'boolean' } } },
                  payload: { type: 'object', example: { a: 1 } },
                },
              },
            },
          },
        },
        responses: ok,
      },
    },
  },
};

describe('form bodies', () => {
  it('writes nested fields as name[key]=… by the encoding, not as JSON text', () => {
    const spec = structuredClone(stripeLike);
    // payload: a field the encoding sends as JSON.
    Object.assign(
      spec.paths['/v1/customers/{customer}/sources'].post.requestBody.content[
        'application/x-www-form-urlencoded'
      ].encoding,
      {
        payload: { contentType: 'application/json' },
      },
    );
    const result = openApiToPlan(doc(spec));
    const [step] = result.steps;
    expect(step?.url).toBe('https://api.stripe.test/v1/customers/{{customer}}/sources');
    expect(step?.headers).toContainEqual({
      name: 'Content-Type',
      value: 'application/x-www-form-urlencoded',
    });
    expect(step?.payload).toBe(
      [
        'bank_account[account_holder_name]=Jenny+Rosen',
        'bank_account[account_holder_type]=company',
        'bank_account[country]=US',
        'expand[0]=customer',
        'metadata[order_id]=6735',
        // No encoding entry: an array of scalars repeats the name, an object is still name[key].
        'tags=vip',
        'source=tok_visa',
        'options[validate]=true',
        'payload=%7B%22a%22%3A1%7D',
      ].join('&'),
    );
    expect(step?.payload).not.toContain('%0A');
    expect(result.needsValue).toEqual([
      { name: 'customer', calls: ['POST /v1/customers/{customer}/sources'] },
    ]);
  });

  it('writes the same fields as multipart parts named name[key]', () => {
    const spec = structuredClone(stripeLike);
    const operation = spec.paths['/v1/customers/{customer}/sources'].post;
    const form = operation.requestBody.content['application/x-www-form-urlencoded'];
    const multipart = { ...operation, requestBody: { content: { 'multipart/form-data': form } } };
    const [step] = openApiToPlan(
      doc({ ...spec, paths: { '/v1/customers/{customer}/sources': { post: multipart } } }),
    ).steps;
    expect(step?.payload).toContain(
      'Content-Disposition: form-data; name="bank_account[account_holder_name]"\r\n\r\nJenny Rosen\r\n',
    );
    expect(step?.payload).toContain('name="expand[0]"\r\n\r\ncustomer\r\n');
  });

  it('sends JSON bodies as JSON, the media type example first', () => {
    const [step] = openApiToPlan(
      v3({
        '/j': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  example: { card: { number: '4242' } },
                  schema: { type: 'object', properties: { card: { type: 'object' } } },
                },
              },
            },
            responses: ok,
          },
        },
      }),
    ).steps;
    expect(JSON.parse(step?.payload ?? '')).toEqual({ card: { number: '4242' } });
  });
});

describe('think time of imported calls', () => {
  it('is none for every importer whose source gives none', () => {
    const sources = [
      {
        name: 'a.har',
        text: JSON.stringify({ log: { entries: [{ request: { method: 'GET', url: 'https://h.test/a' } }] } }),
      },
      { name: 'c.sh', text: "curl https://h.test/b -H 'X-A: 1'" },
      { name: 't.csv', text: 'name,method,url\nA,GET,https://h.test/c\n' },
      {
        name: 'p.json',
        text: JSON.stringify({
          info: { name: 'P', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
          item: [{ name: 'D', request: { method: 'GET', url: 'https://h.test/d' } }],
        }),
      },
      v3({ '/e': { get: { responses: ok } } }),
    ];
    for (const source of sources) {
      const result = importFile(source);
      expect(
        result.steps.map((s) => s.thinkTime),
        source.name,
      ).toEqual(['0']);
    }
  });

  it('keeps the think time a table gives', () => {
    const result = importFile({ name: 't.csv', text: 'method,url,thinkTime\nGET,https://h.test/c,2s\n' });
    expect(result.steps[0]?.thinkTime).toBe('2s');
  });
});

describe('a parameter with a media type', () => {
  it('is sent as JSON text of its example, not spread by a style', () => {
    const [step] = openApiToPlan(
      v3({
        '/search': get([
          {
            name: 'filter',
            in: 'query',
            required: true,
            content: { 'application/json': { example: { color: 'red', size: 2 } } },
          },
        ]),
      }),
    ).steps;
    expect(step?.parameters).toEqual([{ key: 'filter', value: '{"color":"red","size":2}' }]);
  });
});
