import { describe, expect, it } from 'vitest';
import { fixture } from '../../test/fixtures';
import { ImportError } from './import-model';
import { postmanToPlan } from './postman-to-plan';

const V21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const collection = (body: Record<string, unknown>) => ({
  name: 'c.postman_collection.json',
  text: JSON.stringify({ info: { name: 'C', schema: V21 }, ...body }),
});

describe('postmanToPlan', () => {
  it("gives each request its folders as tags, for the import screen's tag filter", () => {
    const result = postmanToPlan(
      collection({
        item: [
          {
            name: 'Shop',
            item: [{ name: 'Orders', item: [{ name: 'List', request: { url: 'https://api.test/orders' } }] }],
          },
          { name: 'Ping', request: { url: 'https://api.test/ping' } },
        ],
      }),
    );
    expect(result.sources.map((source) => source.tags)).toEqual([['Shop', 'Orders'], []]);
  });

  it('takes the requests of nested folders in the order Postman runs them', () => {
    const result = postmanToPlan(fixture('postman/postman-to-k6/material/2.1/tree.json'));
    expect(result.info).toMatchObject({ kind: 'Postman collection v2.1.0', requests: 11, folders: 6 });
    expect(result.sources.map((s) => s.location).slice(0, 3)).toEqual([
      'First / Login / DoLogin',
      'First / Login / DoLogin',
      'First / Login / DoLogin',
    ]);
    const v1 = postmanToPlan(fixture('postman/newman/multi-level-folders-v1.postman_collection.json'));
    const v2 = postmanToPlan(fixture('postman/newman/multi-level-folders-v2.postman_collection.json'));
    expect(v1.info.kind).toBe('Postman collection v1');
    expect(v1.steps.map((s) => s.name)).toEqual(v2.steps.map((s) => s.name));
    expect(v2.steps.map((s) => s.name)).toEqual(['F1.R1', 'F1.R2', 'F1.R3', 'F2.F3.R1', 'F2.R1', 'R1']);
  });

  it('inherits authorization from the nearest folder or the collection; noauth stops it', () => {
    const auth = (path: string) => postmanToPlan(fixture(path)).steps.map((s) => s.authorization);
    expect(auth('postman/postman-to-k6/material/2/inherit-collection.json')[0]).toMatchObject({
      type: 'bearer',
      token: 'token',
    });
    expect(auth('postman/postman-to-k6/material/2/inherit-folder.json')[0]).toMatchObject({ type: 'bearer' });
    expect(auth('postman/postman-to-k6/material/2/inherit-nested.json')[0]).toMatchObject({
      type: 'bearer',
      token: 'token',
    });
    const inherited = postmanToPlan(
      fixture('postman/newman/inherited-entities/inherited-entities.postman_collection.json'),
    );
    expect(inherited.steps.map((s) => s.authorization.type)).toEqual([
      'basic',
      'basic',
      'basic',
      'none',
      'none',
      'none',
      'none',
      'basic',
    ]);
    expect(inherited.steps[0]?.authorization).toMatchObject({ username: 'postman', password: 'password' });
    expect(inherited.warnings.filter((w) => w.message.startsWith('Digest authorization'))).toEqual([
      {
        location: 'collection',
        message:
          'Digest authorization (first used by Folder level stuff) cannot be expressed in the plan; the requests that use it are sent without authorization',
      },
    ]);

    const explicit = postmanToPlan(
      collection({
        auth: { type: 'bearer', bearer: [{ key: 'token', value: 'outer' }] },
        item: [
          {
            name: 'F',
            auth: {
              type: 'apikey',
              apikey: [
                { key: 'key', value: 'X-Key' },
                { key: 'value', value: 'k1' },
                { key: 'in', value: 'query' },
              ],
            },
            item: [
              { name: 'inherits folder', request: { url: 'https://h/a' } },
              {
                name: 'own basic',
                request: {
                  url: 'https://h/b',
                  auth: {
                    type: 'basic',
                    basic: [
                      { key: 'username', value: 'u' },
                      { key: 'password', value: 'p' },
                    ],
                  },
                },
              },
              { name: 'noauth', request: { url: 'https://h/c', auth: { type: 'noauth' } } },
            ],
          },
          { name: 'inherits collection', request: { url: 'https://h/d', auth: null } },
          {
            name: 'client credentials',
            request: {
              url: 'https://h/e',
              auth: {
                type: 'oauth2',
                oauth2: [
                  { key: 'grant_type', value: 'client_credentials' },
                  { key: 'accessTokenUrl', value: 'https://auth/token' },
                  { key: 'clientId', value: 'id' },
                  { key: 'clientSecret', value: 'secret' },
                ],
              },
            },
          },
        ],
      }),
    );
    expect(explicit.steps.map((s) => s.authorization)).toMatchObject([
      { type: 'api_key', keyName: 'X-Key', keyValue: 'k1', in: 'query' },
      { type: 'basic', username: 'u', password: 'p' },
      { type: 'none' },
      { type: 'bearer', token: 'outer' },
      { type: 'oauth2', token: 'id:secret', tokenUrl: 'https://auth/token' },
    ]);
  });

  it('fills {{variables}} the collection gives a value, keeps the others as written, and takes an environment', () => {
    const result = postmanToPlan(
      fixture('postman/newman/inherited-entities/inherited-entities.postman_collection.json'),
    );
    expect(result.steps[0]).toMatchObject({
      url: 'https://postman-echo.com/get',
      parameters: [{ key: 'test', value: 'collection_variable' }],
    });
    expect(result.steps[2]?.url).toBe('{{collectionScriptURL}}');
    expect(postmanToPlan(fixture('postman/postman-to-k6/material/2/var-collection.json')).steps[0]?.url).toBe(
      'http://573.example.com',
    );

    const source = collection({
      variable: [
        { key: 'host', value: 'api.test' },
        { key: 'empty', value: '' },
      ],
      item: [
        {
          name: 'r',
          request: {
            url: 'https://{{host}}/{{version}}/x?id={{$guid}}',
            header: [
              { key: 'X-Env', value: '{{env}}' },
              { key: 'X-E', value: '{{empty}}' },
            ],
          },
        },
      ],
    });
    const plain = postmanToPlan(source);
    expect(plain.steps[0]).toMatchObject({
      url: 'https://api.test/{{version}}/x',
      parameters: [{ key: 'id', value: '{{$guid}}' }],
      headers: [
        { name: 'X-Env', value: '{{env}}' },
        { name: 'X-E', value: '{{empty}}' },
      ],
    });
    expect(plain.warnings.some((w) => w.message.includes('dynamic variable {{$guid}}'))).toBe(true);
    const withEnv = postmanToPlan(source, {
      environment: { version: 'v2', env: 'staging', host: 'override.test' },
    });
    expect(withEnv.steps[0]?.url).toBe('https://override.test/v2/x');
    expect(withEnv.steps[0]?.headers[0]).toEqual({ name: 'X-Env', value: 'staging' });
    const fromFile = postmanToPlan(
      fixture('postman/newman/esc-formdata/esc-formdata.postman_collection.json'),
      {
        environment: fixture('postman/newman/esc-formdata/esc-formdata.postman_environment.json'),
      },
    );
    expect(fromFile.steps[0]?.payload).not.toContain('{{msg}}');
  });

  it('drops disabled headers and query parameters', () => {
    const result = postmanToPlan(
      collection({
        item: [
          {
            name: 'r',
            request: {
              method: 'GET',
              header: [
                { key: 'A', value: '1' },
                { key: 'B', value: '2', disabled: true },
              ],
              url: {
                raw: 'https://h/x?keep=1&drop=2',
                query: [
                  { key: 'keep', value: '1' },
                  { key: 'drop', value: '2', disabled: true },
                ],
              },
            },
          },
        ],
      }),
    );
    expect(result.steps[0]).toMatchObject({
      headers: [{ name: 'A', value: '1' }],
      parameters: [{ key: 'keep', value: '1' }],
    });
  });

  it('puts :path variables in the URL, their value or a {{template}}', () => {
    const httpbin = postmanToPlan(fixture('postman/postman-to-k6/example/v2/httpbin.json'));
    expect(httpbin.steps.find((s) => s.name === 'PathVariables')?.url).toBe('http://httpbin.org/status/201');
    const twitter = postmanToPlan(fixture('postman/postman-to-k6/example/v2/twitter.json'));
    expect(twitter.steps.find((s) => s.name === 'Destroy tweet')?.url).toMatch(
      /^https:\/\/api\.twitter\.com\/1\.1\/statuses\/destroy\/[^/]+\.json$/,
    );
    const unknown = postmanToPlan(
      collection({ item: [{ name: 'r', request: { url: 'https://h/users/:userId/posts' } }] }),
    );
    expect(unknown.steps[0]?.url).toBe('https://h/users/{{userId}}/posts');
  });

  it('turns raw, urlencoded, form-data and GraphQL bodies into payloads with their content type', () => {
    const body = (path: string) => postmanToPlan(fixture(path)).steps[0];
    const raw = postmanToPlan(fixture('postman/newman/examples/sample-collection.json')).steps.find(
      (s) => s.name === 'A simple POST request with JSON body',
    );
    expect(raw?.payload).toBe(
      '{"text":"Duis posuere augue vel cursus pharetra. In luctus a ex nec pretium..."}',
    );
    expect(raw?.headers).toContainEqual({ name: 'Content-Type', value: 'application/json' });
    const urlencoded = body('postman/postman-to-k6/material/2/body-url.json');
    expect(urlencoded?.headers).toContainEqual({
      name: 'Content-Type',
      value: 'application/x-www-form-urlencoded',
    });
    expect(urlencoded?.payload).toMatch(/^\w+=/);
    const form = body('postman/postman-to-k6/material/2/body-form.json');
    expect(form?.headers.find((h) => h.name === 'Content-Type')?.value).toMatch(
      /^multipart\/form-data; boundary=/,
    );
    const upload = postmanToPlan(fixture('postman/postman-to-k6/material/2.1/upload.json'));
    expect(upload.steps[0]?.payload).toContain('filename=');
    expect(upload.warnings.some((w) => /File field .*not part of the collection/.test(w.message))).toBe(true);
    const graphql = body('postman/postman-to-k6/example/v2/github-graphql.json');
    expect(graphql?.headers).toContainEqual({ name: 'Content-Type', value: 'application/json' });
    expect((JSON.parse(graphql?.payload ?? '{}') as { query: string }).query).toContain(
      'repositories(last: 3)',
    );
    expect(graphql?.authorization).toMatchObject({ type: 'bearer', token: '{{GITHUB_TOKEN}}' });
  });

  it('a load plan says once how many scripts it leaves out; a functional plan keeps them (ADR 0029 §1)', () => {
    const scriptsNotes = (path: string, scriptsRun?: boolean) =>
      postmanToPlan(fixture(path), { scriptsRun }).warnings.filter((w) => /script/.test(w.message));
    // One collection-level pre-request script, one folder test script, one request pre-request script.
    expect(scriptsNotes('postman/postman-to-k6/material/2/pre-collection.json')).toEqual([
      {
        location: 'collection',
        message:
          "The collection's 1 pre-request script is not run by a load test, which sends the calls only; import the collection as an API test to run them",
      },
    ]);
    const folder = scriptsNotes('postman/postman-to-k6/material/2/post-folder.json');
    expect(folder.map((w) => w.message.slice(0, 46))).toEqual([
      "The collection's 1 test script is not run by a",
    ]);
    for (const path of [
      'postman/postman-to-k6/material/2/pre-collection.json',
      'postman/postman-to-k6/material/2/post-folder.json',
      'postman/postman-to-k6/material/2/pre-request.json',
    ]) {
      expect(scriptsNotes(path, true)).toEqual([]);
    }
  });

  it('keeps a {{variable}} in a path variable as written, encoding only the rest (issue #27 point 6)', () => {
    const result = postmanToPlan(
      collection({
        variable: [{ key: 'base', value: 'https://api.test' }],
        item: [
          {
            name: 'Get order',
            request: {
              method: 'GET',
              url: {
                raw: '{{base}}/orders/:id/lines/:line',
                host: ['{{base}}'],
                path: ['orders', ':id', 'lines', ':line'],
                variable: [
                  { key: 'id', value: '{{order_id}}' },
                  { key: 'line', value: 'a b/{{n}}' },
                ],
              },
            },
          },
        ],
      }),
    );
    expect(result.steps[0]?.url).toBe('https://api.test/orders/{{order_id}}/lines/a%20b%2F{{n}}');
    const kept = postmanToPlan(
      collection({
        variable: [{ key: 'base', value: 'https://api.test' }],
        item: [
          {
            name: 'x',
            request: { url: { raw: '{{base}}/o/:id', variable: [{ key: 'id', value: '{{order_id}}' }] } },
          },
        ],
      }),
      { keepVariables: true },
    );
    expect(kept.steps[0]?.url).toBe('{{base}}/o/{{order_id}}');
  });

  it('reads UTF-8 files with a byte-order mark', () => {
    const result = postmanToPlan(
      fixture('postman/newman/bom-and-encoding/bom-in-collection-file.postman_collection.json'),
    );
    expect(result.steps).toHaveLength(3);
  });

  it('leaves out requests whose method the plan cannot send, saying which', () => {
    const result = postmanToPlan(
      fixture('postman/newman/custom-http-method/custom-http-method.postman_collection.json'),
    );
    expect(result.info.methods).toEqual({ POSTMAN: 3 });
    expect(result.steps).toEqual([]);
    expect(
      result.warnings.filter((w) => w.message.startsWith('POSTMAN is not a method the plan can send')),
    ).toHaveLength(3);
  });

  it('refuses an environment, a globals file and a data file, saying what each is', () => {
    const message = (path: string) => {
      try {
        postmanToPlan(fixture(path));
      } catch (error) {
        expect(error).toBeInstanceOf(ImportError);
        return (error as Error).message;
      }
      return 'imported';
    };
    expect(message('postman/postman-to-k6/material/2/environment.json')).toBe(
      'environment.json: this is a Postman environment (3 variables), not a collection; import the collection it goes with',
    );
    expect(
      message('postman/newman/bom-and-encoding/utf16-le-encoding-in-env.postman_environment.json'),
    ).toMatch(/a Postman environment \(4 variables\)/);
    expect(message('postman/postman-to-k6/material/2/globals.json')).toMatch(/a Postman globals file/);
    expect(message('postman/postman-to-k6/material/2/data-json.json')).toMatch(/a JSON array \(3 rows/);
  });
});
