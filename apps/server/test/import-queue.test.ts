import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParseResponseSchema } from '@aqa/contract';
import { registerAndLogin, removeDir, startTestServer, type TestServer } from './helpers';
import { multipartBody } from './multipart-body';

/**
 * The import queue (docs/design.md §11 "Bad input"): a slow import holds one worker, not the server —
 * /api/health and other users' imports go on — and the queue is bounded in all and per user, with a 429
 * and an honest Retry-After beyond that.
 */

/** An OpenAPI document of `paths` paths, each with a described body and a shared schema: megabytes of JSON. */
function bigOpenApi(paths: number): Buffer {
  const prose = 'Returns the resource and every field the caller may read, with links to related resources. ';
  const doc = {
    openapi: '3.0.3',
    info: { title: 'Big', version: '1' },
    servers: [{ url: 'http://127.0.0.1:9/api' }],
    components: {
      schemas: {
        Item: {
          type: 'object',
          properties: Object.fromEntries(
            Array.from({ length: 20 }, (_, i) => [`field${i}`, { type: 'string', example: `value ${i}` }]),
          ),
        },
      },
    },
    paths: Object.fromEntries(
      Array.from({ length: paths }, (_, i) => [
        `/things${i}/{id}`,
        {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', example: i } }],
          get: {
            summary: `Thing ${i}`,
            description: prose.repeat(4),
            responses: { '200': { description: 'ok' } },
          },
          put: {
            description: prose.repeat(4),
            requestBody: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
            },
            responses: { '200': { description: 'ok' } },
          },
        },
      ]),
    ),
  };
  return Buffer.from(JSON.stringify(doc));
}

const SMALL = Buffer.from(
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Small', version: '1' },
    paths: { '/ping': { get: { responses: { '200': { description: 'ok' } } } } },
  }),
);

async function importAs(server: TestServer, token: string, content: Buffer, name = 'api.json') {
  const { payload, headers } = multipartBody([{ name: 'file', filename: name, content }]);
  return server.app.inject({
    method: 'POST',
    url: '/api/parse-swagger',
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
}

describe('while a large import runs', () => {
  let server: TestServer;
  let tokens: string[];

  beforeAll(async () => {
    // Two workers, as on a two-core machine: with one, the small import waited for the large one.
    server = await startTestServer(
      { LOGIN_RATE_LIMIT_PER_IP: '1000', REGISTER_RATE_LIMIT_PER_IP: '1000' },
      undefined,
      { importLimits: { workers: 2 } },
    );
    tokens = [];
    for (let i = 0; i < 2; i++) tokens.push((await registerAndLogin(server)).token);
    // Both workers started before the race: on a busy machine a worker's first start took longer than
    // the whole large import, and the small import lost for that reason alone.
    const warmed = await Promise.all(tokens.map((token) => importAs(server, token, SMALL)));
    for (const response of warmed) expect(response.statusCode).toBe(200);
  });

  afterAll(async () => {
    await server.close();
    removeDir(server.dataDir);
  });

  it("answers /api/health promptly, and another user's small import finishes first", async () => {
    const [big, small] = [tokens[0] ?? '', tokens[1] ?? ''];
    const document = bigOpenApi(3000);
    const order: string[] = [];
    const large = importAs(server, big, document).then((response) => {
      order.push('large');
      return response;
    });
    const latencies: number[] = [];
    const other = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const response = await importAs(server, small, SMALL);
      order.push('small');
      return response;
    })();
    let done = false;
    void large.finally(() => (done = true));
    while (!done) {
      const t = performance.now();
      const health = await server.app.inject({ method: 'GET', url: '/api/health' });
      latencies.push(performance.now() - t);
      expect(health.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const [largeResponse, smallResponse] = await Promise.all([large, other]);
    expect(largeResponse.statusCode).toBe(200);
    // Written out in the worker, the answer is still the documented one.
    expect(ParseResponseSchema.parse(largeResponse.json()).apis).toHaveLength(6000);
    expect(smallResponse.statusCode).toBe(200);
    expect(order).toEqual(['small', 'large']);
    // A behaviour bound, not a benchmark: the large import took seconds; health never waited for it.
    expect(latencies.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...latencies)).toBeLessThan(500);
  });
});

describe('a full import queue', () => {
  let server: TestServer;
  let tokens: string[];

  beforeAll(async () => {
    // One worker, one place in the queue, one import per user: the smallest queue, to fill it by hand.
    server = await startTestServer(
      {
        LOGIN_RATE_LIMIT_PER_IP: '1000',
        REGISTER_RATE_LIMIT_PER_IP: '1000',
        IMPORT_QUEUE_LENGTH: '1',
        IMPORT_QUEUE_PER_USER: '1',
      },
      undefined,
      { importLimits: { workers: 1 } },
    );
    tokens = [];
    for (let i = 0; i < 3; i++) tokens.push((await registerAndLogin(server)).token);
  });

  afterAll(async () => {
    await server.close();
    removeDir(server.dataDir);
  });

  it('answers 429 with Retry-After to a user over their share and when full, and runs the others', async () => {
    const [a, b, c] = [tokens[0] ?? '', tokens[1] ?? '', tokens[2] ?? ''];
    const running = importAs(server, a, bigOpenApi(1500));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const again = await importAs(server, a, SMALL);
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const user = again.json<{ code: string; detail: string }>();
    expect(user.code).toBe('IMPORT_QUEUE_USER_LIMIT');
    expect(user.detail).toMatch(
      /^You already have the most imports waiting or running .*; try again in \d+ seconds?/,
    );

    const waiting = importAs(server, b, SMALL);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const full = await importAs(server, c, SMALL);
    expect(full.statusCode).toBe(429);
    expect(Number(full.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const busy = full.json<{ code: string; detail: string }>();
    expect(busy.code).toBe('IMPORT_QUEUE_FULL');
    expect(busy.detail).toMatch(
      /^The server has as many imports waiting as it takes; try again in \d+ seconds?$/,
    );

    expect((await running).statusCode).toBe(200);
    expect((await waiting).statusCode).toBe(200);
    // Places free again once the imports have finished.
    expect((await importAs(server, c, SMALL)).statusCode).toBe(200);
  });
});
