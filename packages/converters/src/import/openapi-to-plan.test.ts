import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../test/fixtures';
import { ImportError } from './import-model';
import { openApiToPlan } from './openapi-to-plan';

const doc = (spec: Record<string, unknown>, name = 'api.json') => ({ name, text: JSON.stringify(spec) });
const v3 = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  doc({
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    servers: [{ url: 'https://api.test/v1' }],
    paths,
    ...extra,
  });
const ok = { 200: { description: 'ok' } };

describe('openApiToPlan', () => {
  it("keeps each operation's tags and operationId, for the import screen's search and tag filter", () => {
    const result = openApiToPlan(
      v3({
        '/pets': {
          get: { operationId: 'listPets', tags: ['pets', 'read'], responses: ok },
          post: { summary: 'Add a pet', tags: ['pets', 7, ' '], responses: ok },
        },
        '/health': { get: { responses: ok } },
      }),
    );
    expect(result.sources.map(({ tags, operationId }) => ({ tags, operationId }))).toEqual([
      { tags: ['pets', 'read'], operationId: 'listPets' },
      { tags: ['pets'], operationId: undefined },
      { tags: [], operationId: undefined },
    ]);
  });

  it('imports Petstore v3 in document order, with the JSON examples as bodies', () => {
    const result = openApiToPlan(fixture('openapi/swagger-petstore/v3-openapi.yaml'));
    expect(result.steps).toHaveLength(19);
    expect(result.steps.slice(0, 3).map((s) => `${s.method} ${s.url}`)).toEqual([
      'PUT https://petstore3.swagger.io/api/v3/pet',
      'POST https://petstore3.swagger.io/api/v3/pet',
      'GET https://petstore3.swagger.io/api/v3/pet/findByStatus',
    ]);
    const addPet = result.steps[1];
    expect(addPet?.name).toBe('Add a new pet to the store.');
    expect(JSON.parse(addPet?.payload ?? '')).toMatchObject({
      id: 10,
      name: 'doggie',
      category: { id: 1, name: 'Dogs' },
    });
    expect(addPet?.headers).toEqual([{ name: 'Content-Type', value: 'application/json' }]);
    expect(result.sources[1]).toMatchObject({
      path: '/pet',
      method: 'POST',
      requestBody: { contentType: 'application/json', required: true },
    });
    expect(result.info).toMatchObject({
      title: 'Swagger Petstore - OpenAPI 3.0',
      kind: 'OpenAPI 3.0.4',
      requests: 19,
    });
  });

  it('replaces every server URL with the base URL given', () => {
    const result = openApiToPlan(fixture('openapi/swagger-petstore/v3-openapi.yaml'), {
      baseUrl: 'http://localhost:8080/api/v3/',
    });
    expect(result.steps.every((s) => s.url.startsWith('http://localhost:8080/api/v3/'))).toBe(true);
    expect(result.info.servers).toEqual(['http://localhost:8080/api/v3']);
  });

  it('fills server variables with their defaults, keeps {{baseUrl}} templates, and warns when there is no server', () => {
    expect(openApiToPlan(fixture('openapi/oai-examples/v3.0/uspto.yaml')).steps[0]?.url).toBe(
      'https://developer.uspto.gov/ds-api/',
    );
    expect(
      openApiToPlan(fixture('openapi/edge-cases/valid_openapi/root_url_server_with_variables.json')).steps[0]
        ?.url,
    ).toBe('https://api.example.com/api/primary-domain/works');
    expect(
      openApiToPlan(fixture('openapi/edge-cases/valid_openapi31X/yaml/petstore.yaml')).info.servers,
    ).toEqual(['https://demo.gigantic-server.com:8443/v2']);
    const none = openApiToPlan(
      doc({
        openapi: '3.1.0',
        info: { title: 'x', version: '1' },
        paths: { '/a': { get: { responses: ok } } },
      }),
    );
    expect(none.steps[0]?.url).toBe('{{baseUrl}}/a');
    expect(none.warnings).toContainEqual({
      location: 'servers',
      message: expect.stringContaining('names no server') as string,
    });
    const noDefault = openApiToPlan(
      v3(
        { '/a': { get: { responses: ok } } },
        { servers: [{ url: 'https://{tenant}.api.test', variables: { tenant: {} } }] },
      ),
    );
    expect(noDefault.steps[0]?.url).toBe('https://{{tenant}}.api.test/a');
  });

  it('puts path parameters into the URL and query and header parameters into their lists, a value the document does not give as a {{variable}}', () => {
    const result = openApiToPlan(
      v3({
        '/users/{userId}/posts/{postId}': {
          parameters: [{ name: 'userId', in: 'path', required: true, schema: { type: 'integer' } }],
          get: {
            parameters: [
              { name: 'postId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
              { name: 'limit', in: 'query', required: true, schema: { type: 'integer', default: 20 } },
              { name: 'sort', in: 'query', schema: { type: 'string' } },
              {
                name: 'tags',
                in: 'query',
                required: true,
                schema: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
              },
              { name: 'X-Trace', in: 'header', required: true, example: 'abc' },
              { name: 'Accept', in: 'header', required: true, schema: { type: 'string' } },
              { name: 'session', in: 'cookie', required: true, example: 's1' },
            ],
            responses: ok,
          },
        },
      }),
    );
    const [step] = result.steps;
    // No example, default or enum: a variable, never a value of the type ("1", a made-up uuid).
    expect(step?.url).toBe('https://api.test/v1/users/{{userId}}/posts/{{postId}}');
    // sort is optional and has no value, so it is not sent (one warning says so).
    expect(step?.parameters).toEqual([
      { key: 'limit', value: '20' },
      { key: 'tags', value: 'a' },
    ]);
    expect(step?.headers).toEqual([
      { name: 'X-Trace', value: 'abc' },
      { name: 'Cookie', value: 'session=s1' },
    ]);
    expect(result.needsValue).toEqual([
      { name: 'userId', calls: ['GET /users/{userId}/posts/{postId}'] },
      { name: 'postId', calls: ['GET /users/{userId}/posts/{postId}'] },
    ]);
    expect(result.warnings).toContainEqual({
      location: 'parameters',
      message:
        '1 optional parameter has no example, default or enum value in the document, so it is not sent; add one by hand where a test needs it',
    });
  });

  it('takes parameter examples where the document gives them', () => {
    const [step] = openApiToPlan(
      fixture('openapi/edge-cases/valid_openapi/parameteres_with_examples.yaml'),
    ).steps;
    expect(step?.url).toBe('http://petstore.swagger.io/v1/pets/9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d');
    expect(step?.parameters).toEqual([{ key: 'limit', value: '123' }]);
    expect(step?.headers).toEqual([{ name: 'x-date', value: '2003-02-17' }]);
  });

  it('leaves a path parameter the document does not describe as a {{template}} to fill in', () => {
    const result = openApiToPlan(v3({ '/items/{id}': { get: { responses: ok } } }));
    expect(result.steps[0]?.url).toBe('https://api.test/v1/items/{{id}}');
    expect(result.warnings[0]?.message).toBe(
      'Path parameter id is not described in the document; the URL holds {{id}} to fill in',
    );
    expect(result.needsValue).toEqual([{ name: 'id', calls: ['GET /items/{id}'] }]);
  });

  it('builds a body from the schema when there is no example: allOf merged, oneOf/anyOf first choice, readOnly left out', () => {
    const result = openApiToPlan(
      v3(
        {
          '/pets': {
            post: {
              requestBody: {
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
              },
              responses: ok,
            },
          },
        },
        {
          components: {
            schemas: {
              Base: {
                type: 'object',
                properties: {
                  id: { type: 'integer', readOnly: true },
                  created: { type: 'string', format: 'date-time' },
                },
              },
              Pet: {
                allOf: [
                  { $ref: '#/components/schemas/Base' },
                  {
                    type: 'object',
                    properties: {
                      name: { type: 'string', example: 'Rex' },
                      kind: { oneOf: [{ type: 'null' }, { type: 'string', enum: ['dog', 'cat'] }] },
                      owner: { anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'string' }] },
                      weight: { type: ['number', 'null'], minimum: 0.5 },
                    },
                  },
                ],
              },
              Owner: {
                type: 'object',
                properties: {
                  email: { type: 'string', format: 'email' },
                  pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
                },
              },
            },
          },
        },
      ),
    );
    expect(JSON.parse(result.steps[0]?.payload ?? '')).toEqual({
      created: '2024-01-01T00:00:00Z',
      name: 'Rex',
      kind: 'dog',
      owner: { email: 'user@example.com', pets: [] },
      weight: 0.5,
    });
    expect(
      JSON.parse(
        openApiToPlan(fixture('openapi/edge-cases/valid_openapi/readOnlyAllOf.json')).steps[1]?.payload ?? '',
      ),
    ).toEqual({
      name: 'string',
      tag: 'string',
      'user.name': 'string',
      'user.tag': 'string',
    });
  });

  it('survives $ref cycles: a self-referring schema is cut where it repeats, a self-referring parameter is a warning', () => {
    const result = openApiToPlan(
      v3(
        {
          '/nodes': {
            post: {
              requestBody: {
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
              },
              responses: ok,
            },
          },
        },
        {
          components: {
            schemas: {
              Node: {
                type: 'object',
                properties: {
                  value: { type: 'integer' },
                  children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
                  next: { $ref: '#/components/schemas/Node' },
                },
              },
              Loop: { $ref: '#/components/schemas/Loop' },
            },
          },
        },
      ),
    );
    expect(JSON.parse(result.steps[0]?.payload ?? '')).toEqual({ value: 0, children: [] });
    const recursive = openApiToPlan(fixture('openapi/edge-cases/valid_openapi/recursiveRefComponents.yaml'));
    expect(recursive.steps).toHaveLength(1);
    expect(recursive.warnings).toEqual([
      {
        location: 'paths./pets.get.parameters',
        message: 'The $ref "#/components/parameters/rec-param" leads back to itself, so it is left out',
      },
    ]);
  });

  it('prefers the JSON media type and its example over other media types', () => {
    const [step] = openApiToPlan(
      fixture('openapi/edge-cases/valid_openapi/multiContentTypesMultiExample.json'),
    ).steps;
    expect(step?.headers).toContainEqual({ name: 'Content-Type', value: 'application/json' });
    expect(JSON.parse(step?.payload ?? '')).toEqual(expect.any(Object));
  });

  it('writes form-urlencoded and multipart bodies, with a placeholder file part and a warning for binary fields', () => {
    const uspto = openApiToPlan(fixture('openapi/oai-examples/v3.0/uspto.yaml')).steps.find(
      (s) => s.method === 'POST',
    );
    expect(uspto?.headers).toContainEqual({
      name: 'Content-Type',
      value: 'application/x-www-form-urlencoded',
    });
    expect(uspto?.payload).toMatch(/^criteria=\*%3A\*&start=0&rows=100$/);

    const upload = openApiToPlan(fixture('openapi/edge-cases/valid_openapi/form-binary-file.json'));
    const [step] = upload.steps;
    const contentType = step?.headers.find((h) => h.name === 'Content-Type')?.value ?? '';
    const boundary = /boundary=(.+)$/.exec(contentType)?.[1];
    expect(contentType.startsWith('multipart/form-data; boundary=')).toBe(true);
    expect(step?.payload).toContain(
      `--${boundary}\r\nContent-Disposition: form-data; name="inputfile"; filename="inputfile.bin"`,
    );
    expect(step?.payload.endsWith(`--${boundary}--\r\n`)).toBe(true);
    expect(upload.warnings.some((w) => w.message.startsWith('File field inputfile'))).toBe(true);
  });

  it('writes an XML body for an XML-only operation', () => {
    const [step] = openApiToPlan(
      fixture('openapi/edge-cases/valid_openapi/xmlRequestAndResponseBody.json'),
    ).steps;
    expect(step?.headers).toContainEqual({ name: 'Content-Type', value: 'application/xml' });
    expect(step?.payload).toMatch(/^<ExampleXMLRequest>\n {2}<requestInteger>0<\/requestInteger>/);
  });

  it('maps security schemes to the authorization: bearer, basic, API key in header or query, OAuth2 client credentials', () => {
    const auth = (path: string) => openApiToPlan(fixture(path)).steps[0]?.authorization;
    expect(auth('openapi/edge-cases/valid_openapi/specWithAuthBearer.yaml')).toMatchObject({
      type: 'bearer',
      token: '',
    });
    expect(auth('openapi/edge-cases/valid_openapi/specWithAuthBasic.yaml')).toMatchObject({ type: 'basic' });
    expect(auth('openapi/edge-cases/valid_openapi/security-test-cases.yaml')).toMatchObject({
      type: 'api_key',
      keyName: 'Mera-Auth',
      in: 'header',
    });
    const uber = openApiToPlan(fixture('openapi/oai-examples/v2.0/yaml/uber.yaml'));
    expect(
      uber.steps.some(
        (s) =>
          s.authorization.type === 'api_key' &&
          s.authorization.in === 'query' &&
          s.authorization.keyName === 'server_token',
      ),
    ).toBe(true);

    const oauth = openApiToPlan(
      v3(
        {
          '/a': { get: { security: [{ cc: ['read', 'write'] }], responses: ok } },
          '/b': { get: { security: [], responses: ok } },
        },
        {
          security: [{ cc: [] }],
          components: {
            securitySchemes: {
              cc: {
                type: 'oauth2',
                flows: { clientCredentials: { tokenUrl: 'https://auth.test/token', scopes: {} } },
              },
            },
          },
        },
      ),
    );
    expect(oauth.steps[0]?.authorization).toMatchObject({
      type: 'oauth2',
      tokenUrl: 'https://auth.test/token',
      scope: 'read write',
    });
    expect(oauth.steps[1]?.authorization.type).toBe('none');

    const digest = openApiToPlan(fixture('openapi/edge-cases/valid_openapi/specWithAuthDigest.yaml'));
    expect(digest.steps[0]?.authorization.type).toBe('none');
    expect(digest.warnings[0]?.message).toMatch(/HTTP digest.*cannot be expressed in the plan/);
    const implicit = openApiToPlan(fixture('openapi/swagger-petstore/v3-openapi.yaml'));
    expect(implicit.steps[0]?.authorization.type).toBe('bearer');
    expect(
      implicit.warnings.some((w) => /OAuth2 \(implicit flow\).*paste an access token/.test(w.message)),
    ).toBe(true);
  });

  it('keeps the methods in the order written and leaves out the ones the plan cannot send, saying so', () => {
    const result = openApiToPlan(fixture('openapi/edge-cases/valid_openapi/all-http-methods.yaml'));
    expect(Object.keys(result.info.methods)).toEqual([
      'GET',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
      'HEAD',
      'OPTIONS',
      'TRACE',
    ]);
    expect(result.steps.map((s) => s.method)).toEqual([
      'GET',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
      'HEAD',
      'OPTIONS',
    ]);
    expect(result.warnings).toContainEqual({
      location: 'paths./pets.trace',
      message:
        'TRACE is not a method the plan can send (GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS), so this operation is left out',
    });
    expect(result.steps.filter((s) => s.payload !== '').map((s) => s.method)).toEqual([
      'POST',
      'PUT',
      'PATCH',
    ]);
  });

  it('reads OpenAPI 3.2 additionalOperations and the query method', () => {
    const result = openApiToPlan(
      doc({
        openapi: '3.2.0',
        info: { title: 'x', version: '1' },
        servers: [{ url: 'https://h' }],
        paths: {
          '/a': {
            query: { responses: ok },
            additionalOperations: { LINK: { responses: ok }, PURGE: { responses: ok } },
            get: { responses: ok },
          },
        },
      }),
    );
    expect(result.info.methods).toEqual({ QUERY: 1, LINK: 1, PURGE: 1, GET: 1 });
    expect(result.steps.map((s) => s.method)).toEqual(['GET']);
  });

  it('imports Swagger 2.0: host, basePath and scheme, body and formData parameters', () => {
    const result = openApiToPlan(fixture('openapi/edge-cases/valid_swagger/json/sampleswagger.json'));
    expect(result.steps[0]).toMatchObject({ method: 'POST', url: 'http://petstore.swagger.io/v2/pet' });
    expect(JSON.parse(result.steps[0]?.payload ?? '')).toMatchObject({
      name: 'doggie',
      photoUrls: ['string'],
    });
    const form = result.steps.find((s) => s.name === 'Updates a pet in the store with form data');
    // name and status are optional form fields without a value: not sent, rather than the word "string".
    expect(form?.payload).toBe('');
    expect(form?.url).toBe('http://petstore.swagger.io/v2/pet/{{petId}}');
    const byStatus = result.steps.find((s) => s.url.endsWith('/pet/findByStatus'));
    expect(byStatus?.parameters).toEqual([{ key: 'status', value: 'available' }]);
    const upload = result.steps.find((s) => s.name === 'uploads an image');
    expect(upload?.headers[0]?.value).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('follows references into the other files of a multi-file spec, and names the ones that were not uploaded', () => {
    const root = fixture('openapi/oai-examples/v2.0/json/petstore-separate/spec/swagger.json');
    const alone = openApiToPlan(root);
    expect(alone.steps).toHaveLength(4);
    expect(alone.warnings.map((w) => w.message)).toEqual([
      'The $ref "parameters.json#/tagsParam" points to the file parameters.json, which was not uploaded; upload it together with swagger.json to import what it describes',
      'The $ref "NewPet.json" points to the file NewPet.json, which was not uploaded; upload it together with swagger.json to import what it describes',
    ]);
    const files = Object.fromEntries(
      ['spec/NewPet.json', 'spec/Pet.json', 'spec/parameters.json', 'common/Error.json'].map((p) => [
        p.startsWith('spec/') ? p.slice(5) : `../${p}`,
        fixture(`openapi/oai-examples/v2.0/json/petstore-separate/${p}`),
      ]),
    );
    const together = openApiToPlan(root, { files });
    // Both query parameters are read from parameters.json; being optional without a value, they are not sent.
    expect(together.warnings).toEqual([
      {
        location: 'parameters',
        message:
          '2 optional parameters have no example, default or enum value in the document, so they are not sent; add one by hand where a test needs it',
      },
    ]);
    expect(together.steps[0]?.parameters).toEqual([]);
    expect(Object.keys(JSON.parse(together.steps[1]?.payload ?? '{}') as object)).toContain('name');
  });

  it('refuses what is not an OpenAPI document, with the file, the problem and where', () => {
    const refuse = (source: { name: string; text: string }) => {
      try {
        openApiToPlan(source);
      } catch (error) {
        expect(error).toBeInstanceOf(ImportError);
        return (error as ImportError).message;
      }
      throw new Error('not refused');
    };
    expect(refuse({ name: 'a.json', text: '{"openapi": "3.0.0",\n  "paths": {,}}' })).toMatch(
      /^a\.json: JSON syntax error at line 2, column \d+: /,
    );
    expect(refuse({ name: 'b.yaml', text: stringify({ swaggerVersion: '1.2', apis: [] }) })).toBe(
      'b.yaml: Swagger 1.2 is not supported; convert it to Swagger 2.0 or OpenAPI 3 first',
    );
    expect(refuse({ name: 'c.yaml', text: 'openapi: 4.0.0\npaths: {}' })).toMatch(
      /^c\.yaml: OpenAPI version "4\.0\.0" is not supported/,
    );
    expect(refuse({ name: 'd.yaml', text: 'name: x\nitems: []' })).toBe(
      'd.yaml: this is not an OpenAPI or Swagger document: it has no "openapi" or "swagger" field (its top-level keys are name, items)',
    );
    expect(refuse({ name: 'e.yaml', text: '   \n' })).toBe('e.yaml: the file is empty');
  });
});
