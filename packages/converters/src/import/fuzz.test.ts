import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FunctionalPlanSchema, UrlEntrySchema } from '@aqa/plan';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { FIXTURES_DIR as FIXTURES } from '../../test/fixtures';
import { sampleCsv } from './csv-to-plan';
import { decodeText } from './decode-text';
import { importFile } from './import-file';
import { ImportError, type ImportResult } from './import-model';
import { readTaurusScript } from './taurus/read-taurus';
import { TaurusScriptError } from './taurus/taurus-model';
import { sampleXlsx } from './xlsx-to-plan';

/**
 * Property-based fuzzing of every reader of an uploaded document (docs/design.md §11 "Bad input"): any
 * input — arbitrary text, bytes and JSON, and real documents cut, spliced and with any part replaced by
 * any JSON value — ends as a result the plan model accepts or as an ImportError that names the file,
 * within a time bound. Never another exception type, never a hang.
 *
 * A new reader (a Taurus reader for functional tests) is one more entry in READERS, with its seeds.
 */

interface Upload {
  name: string;
  bytes: Uint8Array;
}

interface Reader {
  name: string;
  /** The file name uploads get (the extension matters to format detection). */
  fileName: string;
  /** An ImportResult to check here, or undefined when the reader checked its own kind of result. */
  read: (upload: Upload) => ImportResult | undefined;
  /** Real documents of the reader's kind, to mutate. */
  seeds: () => Uint8Array[];
}

const encode = (text: string) => new TextEncoder().encode(text);

/** Files under a folder of test-fixtures/ whose names match, smallest first, at most `count`. */
function fixtureFiles(folder: string, pattern: RegExp, count = 6): Uint8Array[] {
  const root = join(FIXTURES, folder);
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return walk(root)
    .filter((path) => pattern.test(path) && statSync(path).size < 40_000)
    .sort((a, b) => statSync(a).size - statSync(b).size || a.localeCompare(b))
    .filter((_, i, all) => i % Math.max(1, Math.floor(all.length / count)) === 0)
    .slice(0, count)
    .map((path) => new Uint8Array(readFileSync(path)));
}

/** Small documents written for this test: seeds of every shape, beside the real documents. */
const INLINE = {
  taurus: [
    'execution:',
    '- concurrency: 2',
    '  iterations: 3',
    '  scenario: api',
    'scenarios:',
    '  api:',
    '    default-address: http://api.test',
    '    headers: {Accept: application/json}',
    '    variables: {user: ann}',
    '    requests:',
    '    - url: /login',
    '      method: POST',
    '      body: {user: "${user}"}',
    '      extract-jsonpath: {token: $.token}',
    '      assert: [{contains: [200], subject: http-code}]',
    '    - url: /me',
    '      headers: {Authorization: "Bearer ${token}"}',
    '      assert-jsonpath: [{jsonpath: $.name, validate: true, expected-value: ann}]',
    '    - if: x',
    '      then: [/never]',
    '---',
    'scenarios: {api: {think-time: 1s}}',
  ].join('\n'),
  openapi: JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Shop', version: '1' },
    servers: [{ url: 'https://{env}.shop.test/v1', variables: { env: { default: 'api' } } }],
    security: [{ key: [] }],
    paths: {
      '/items/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', example: 7 } }],
        get: {
          operationId: 'getItem',
          parameters: [{ name: 'q', in: 'query', schema: { type: 'string', enum: ['a', 'b'] } }],
          responses: { '200': { description: 'ok' } },
        },
        post: {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
          },
          responses: { '201': { description: 'made' } },
        },
      },
    },
    components: {
      schemas: {
        Item: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string' },
            tags: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
          },
        },
      },
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
    },
  }),
  swagger: `swagger: "2.0"
info: {title: Pets, version: "1"}
host: pets.test
basePath: /api
schemes: [https]
securityDefinitions: {basic: {type: basic}}
paths:
  /pets:
    post:
      consumes: [application/json]
      parameters:
        - {name: body, in: body, schema: {$ref: "#/definitions/Pet"}}
        - {name: X-Trace, in: header, type: string, default: t1}
      responses: {200: {description: ok}}
  /pets/{petId}:
    get:
      security: [{basic: []}]
      parameters: [{name: petId, in: path, required: true, type: integer}]
      responses: {200: {description: ok}}
definitions:
  Pet: {type: object, properties: {name: {type: string, example: Rex}, age: {type: integer}}}
`,
  postman: JSON.stringify({
    info: { name: 'Col', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}' }] },
    variable: [{ key: 'base', value: 'https://api.test' }],
    item: [
      {
        name: 'Folder',
        item: [
          {
            name: 'Create',
            request: {
              method: 'POST',
              url: {
                raw: '{{base}}/things?x=1',
                host: ['{{base}}'],
                path: ['things'],
                query: [{ key: 'x', value: '1' }],
              },
              header: [{ key: 'Content-Type', value: 'application/json' }],
              body: { mode: 'raw', raw: '{"a":1}' },
            },
          },
          {
            name: 'Form',
            request: {
              method: 'PUT',
              url: '{{base}}/form',
              body: { mode: 'urlencoded', urlencoded: [{ key: 'a', value: 'b' }] },
              auth: { type: 'basic', basic: [{ key: 'username', value: 'u' }] },
            },
          },
        ],
      },
      { name: 'Plain', request: 'https://api.test/plain' },
    ],
  }),
  postmanV1: JSON.stringify({
    id: 'c1',
    name: 'Old',
    order: ['r1'],
    requests: [{ id: 'r1', name: 'One', url: 'https://api.test/one', method: 'GET', headers: 'X-A: 1\n' }],
  }),
  har: JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      pages: [{ id: 'p1', title: 'Page', startedDateTime: '2024-01-01T00:00:00Z', pageTimings: {} }],
      entries: [
        {
          pageref: 'p1',
          startedDateTime: '2024-01-01T00:00:00Z',
          time: 5,
          request: {
            method: 'POST',
            url: 'https://api.test/login?next=%2F',
            httpVersion: 'HTTP/1.1',
            headers: [
              { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
              { name: 'Cookie', value: 'a=b' },
            ],
            queryString: [{ name: 'next', value: '/' }],
            cookies: [],
            postData: { mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'u', value: 'x' }] },
            headersSize: -1,
            bodySize: 3,
          },
          response: {
            status: 200,
            statusText: 'OK',
            headers: [],
            content: { size: 0, mimeType: 'text/html' },
          },
          timings: { send: 1, wait: 2, receive: 2 },
        },
      ],
    },
  }),
  curl: [
    `curl -X PUT 'https://api.test/users/7?notify=true' -H 'Content-Type: application/json' --data-raw '{"name":"Ada"}'`,
    'curl -u admin:pw https://api.test/a \\\n  -H "X-Env: staging" --compressed',
    'curl -G https://api.test/search -d q=test --data-urlencode "c=x y"',
  ].join('\n'),
};

const READERS: Reader[] = [
  {
    name: 'OpenAPI 3 / Swagger 2',
    fileName: 'api.yaml',
    // With the response schemas a functional import inlines, so their walk is fuzzed too.
    read: (upload) => importFile({ ...upload, format: 'swagger', responseSchemas: true }),
    seeds: () => [
      encode(INLINE.openapi),
      encode(INLINE.swagger),
      ...fixtureFiles('openapi/edge-cases', /\.(json|ya?ml)$/),
    ],
  },
  {
    name: 'Postman',
    fileName: 'collection.json',
    read: (upload) => importFile({ ...upload, format: 'postman' }),
    seeds: () => [encode(INLINE.postman), encode(INLINE.postmanV1), ...fixtureFiles('postman', /\.json$/)],
  },
  {
    name: 'Postman with an environment',
    fileName: 'collection.json',
    // The upload is the environment; the collection is the seed that uses its variables.
    read: (upload) =>
      importFile({
        name: 'collection.json',
        bytes: encode(INLINE.postman),
        format: 'postman',
        environment: upload,
      }),
    seeds: () => [
      encode(
        JSON.stringify({ name: 'env', values: [{ key: 'base', value: 'https://env.test', enabled: true }] }),
      ),
      ...fixtureFiles('postman', /environment\.json$/, 3),
    ],
  },
  {
    name: 'HAR',
    fileName: 'recording.har',
    read: (upload) => importFile({ ...upload, format: 'har' }),
    seeds: () => [encode(INLINE.har), ...fixtureFiles('har', /\.(har|json)$/)],
  },
  {
    name: 'cURL',
    fileName: 'commands.txt',
    read: (upload) => importFile({ ...upload, format: 'curl' }),
    seeds: () => [encode(INLINE.curl)],
  },
  {
    name: 'CSV',
    fileName: 'apis.csv',
    read: (upload) => importFile({ ...upload, format: 'csv' }),
    seeds: () => [encode(sampleCsv())],
  },
  {
    name: 'Excel',
    fileName: 'apis.xlsx',
    read: (upload) => importFile({ ...upload, format: 'excel' }),
    seeds: () => [sampleXlsx()],
  },
  {
    name: 'Taurus script',
    fileName: 'script.yml',
    read: readTaurusUpload,
    seeds: () => [encode(INLINE.taurus), ...fixtureFiles('taurus', /\.ya?ml$/)],
  },
  {
    name: 'any format, detected',
    fileName: 'upload',
    read: (upload) => importFile(upload),
    seeds: () => [encode(INLINE.openapi), encode(INLINE.postman), encode(INLINE.har), encode(INLINE.curl)],
  },
];

/**
 * The script screen's Taurus reader has its own result and error: a result must be a plan the model
 * accepts with warnings that name a path, and a refusal (TaurusScriptError, every warning refused) is
 * reported here as the named import error every reader ends in.
 */
function readTaurusUpload(upload: Upload): undefined {
  try {
    const result = readTaurusScript(decodeText(upload.bytes).text);
    // The script's own variables stay in its YAML (they are not the plan's Postman-style `variables`).
    const { variables: _scriptVariables, ...read } = result;
    FunctionalPlanSchema.parse({ ...read, source: 'script_input', script_content: 'read' });
    for (const warning of result.warnings) {
      expect(warning.path).not.toBe('');
      expect(warning.message).not.toBe('');
      expect(warning.effect).toBe('skipped');
    }
    return undefined;
  } catch (error) {
    if (!(error instanceof TaurusScriptError)) throw error;
    expect(error.message).not.toBe('');
    expect(error.warnings.every((w) => w.effect === 'refused')).toBe(true);
    throw new ImportError(upload.name, error.message, { cause: error });
  }
}

// A failure is reported as found, not shrunk: shrinking re-reads large inputs many times over, which
// would cost minutes of CI when it is the time bound that failed.
// AQA_FUZZ_SEED and AQA_FUZZ_PATH replay a reported failure ({ seed, path } in the report).
fc.configureGlobal({
  endOnFailure: true,
  ...(process.env.AQA_FUZZ_SEED ? { seed: Number(process.env.AQA_FUZZ_SEED) } : {}),
  ...(process.env.AQA_FUZZ_PATH ? { path: process.env.AQA_FUZZ_PATH } : {}),
});

/** How long one input may take to read; far above what a small input needs. */
const TIME_BOUND_MS = 2000;
/** Inputs per property; AQA_FUZZ_RUNS raises it for a longer search (the suite's share of CI is seconds). */
const RUNS = Number(process.env.AQA_FUZZ_RUNS) || 25;

/** The outcome every input must have: a result the model accepts, or an ImportError naming the file. */
function readWithin(reader: Reader, bytes: Uint8Array): void {
  const upload = { name: reader.fileName, bytes };
  const started = performance.now();
  try {
    const result = reader.read(upload);
    if (result !== undefined) {
      expect(result.sources).toHaveLength(result.steps.length);
      for (const step of result.steps) UrlEntrySchema.parse(step);
      expect(typeof result.info.title).toBe('string');
    }
  } catch (error) {
    if (!(error instanceof ImportError)) {
      const { name, message } =
        error instanceof Error ? error : { name: typeof error, message: String(error) };
      throw new Error(`${reader.name} threw ${name} rather than an ImportError: ${message}`, {
        cause: error,
      });
    }
    expect(error.message.startsWith(`${error.file}: `)).toBe(true);
    expect(error.problem.trim()).not.toBe('');
  }
  expect(performance.now() - started).toBeLessThan(TIME_BOUND_MS);
}

const decoder = new TextDecoder();

/** A JSON or YAML document, parsed; undefined for other text. */
function parsed(bytes: Uint8Array): unknown {
  try {
    return parseYaml(decoder.decode(bytes), { maxAliasCount: 100 }) as unknown;
  } catch {
    return undefined;
  }
}

/** Every path to a value inside a document, the document itself first. */
function pathsIn(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(path);
  if (out.length > 5000) return out;
  if (Array.isArray(value)) value.forEach((item, i) => pathsIn(item, [...path, i], out));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) pathsIn(item, [...path, key], out);
  return out;
}

/**
 * Lists, objects or YAML block lists inside each other up to 20,000 deep, closed or left open. Drawn as
 * its recipe and written out by deep(), so a counterexample prints as the recipe.
 */
const deepRecipe = fc.record({
  depth: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 20_000 })),
  open: fc.constantFrom('[', '{"a":', '- ', '{a: ', '[{"b":'),
  closed: fc.boolean(),
});
type DeepRecipe = typeof deepRecipe extends fc.Arbitrary<infer T> ? T : never;

function deep({ depth, open, closed }: DeepRecipe): string {
  const close = open === '[' ? ']' : open === '[{"b":' ? '}]' : open.startsWith('{') ? '}' : '';
  return open.repeat(depth) + (closed ? `1${close.repeat(depth)}` : '');
}

/** Stands for a deep text in a document until it is written out: as a string, or spliced in as JSON. */
const DEEP_STRING = '\u0000deep-string\u0000';
const DEEP_VALUE = '\u0000deep-value\u0000';

type Mutation = 'replace' | 'delete' | 'wrap' | 'stringify';

/** The document with the value at `path` replaced, removed, put in a list, or turned into text. */
function mutate(doc: unknown, path: (string | number)[], mutation: Mutation, replacement: unknown): unknown {
  if (path.length === 0) return mutation === 'wrap' ? [doc] : replacement;
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (mutation === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (mutation === 'wrap') parent[last] = [parent[last]];
  else if (mutation === 'stringify') parent[last] = JSON.stringify(parent[last]) ?? '';
  else parent[last] = replacement;
  return copy;
}

describe.each(READERS)('$name reader', (reader) => {
  const seeds = reader.seeds();

  it('ends any text as a result or a named import error', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 300 }),
          fc.json({ maxDepth: 4 }),
          deepRecipe.map(deep),
        ),
        (text) => readWithin(reader, encode(text)),
      ),
      { numRuns: RUNS },
    );
  });

  it('ends any bytes as a result or a named import error', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => readWithin(reader, bytes)),
      { numRuns: RUNS },
    );
  });

  it('ends a real document with any part replaced, removed or retyped as a result or a named import error', () => {
    const documents = seeds.map(parsed).filter((doc) => doc !== undefined && typeof doc === 'object');
    if (documents.length === 0) return;
    fc.assert(
      fc.property(
        // Seeds by index, so a counterexample prints as a number rather than the whole document.
        fc.nat({ max: documents.length - 1 }),
        fc.array(
          fc.record({
            at: fc.nat(),
            mutation: fc.constantFrom<Mutation>('replace', 'replace', 'delete', 'wrap', 'stringify'),
            replacement: fc.oneof(
              { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
              { weight: 1, arbitrary: fc.constantFrom(DEEP_STRING, DEEP_VALUE) },
            ),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        deepRecipe,
        (seed, changes, recipe) => {
          let doc: unknown = documents[seed];
          for (const { at, mutation, replacement } of changes) {
            const paths = pathsIn(doc);
            doc = mutate(doc, paths[at % paths.length] ?? [], mutation, replacement);
          }
          const text = (JSON.stringify(doc) ?? 'null')
            .replaceAll(JSON.stringify(DEEP_STRING), () => JSON.stringify(deep(recipe)))
            .replaceAll(JSON.stringify(DEEP_VALUE), () => deep({ ...recipe, closed: true }));
          readWithin(reader, encode(text));
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  it('ends a real document cut, spliced or with bytes changed as a result or a named import error', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: seeds.length - 1 }),
        fc.array(
          fc.record({
            at: fc.nat(),
            length: fc.nat({ max: 40 }),
            insert: fc.oneof(
              fc.string({ maxLength: 8 }),
              deepRecipe,
              fc.constantFrom(
                '{',
                '}',
                '[',
                ']',
                '"',
                ':',
                ',',
                '\n',
                '\\',
                '- ',
                '&a ',
                '*a',
                '!!binary ',
                '{{x}}',
                "'",
              ),
            ),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.boolean(),
        (seed, edits, cut) => {
          let bytes = seeds[seed] ?? new Uint8Array();
          for (const { at, length, insert } of edits) {
            const i = at % (bytes.length + 1);
            const text = typeof insert === 'string' ? insert : deep(insert);
            bytes = new Uint8Array([...bytes.subarray(0, i), ...encode(text), ...bytes.subarray(i + length)]);
          }
          if (cut) bytes = bytes.subarray(0, (edits[0]?.at ?? 0) % (bytes.length + 1));
          readWithin(reader, bytes);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });
});
