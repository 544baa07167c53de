import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { PayloadTooLargeError, RateLimitedError } from '../errors';
import { registerErrorHandler } from './error-handler';

const lines: string[] = [];
const app = Fastify({
  logger: { level: 'error', stream: { write: (line: string) => void lines.push(line) } },
});
registerErrorHandler(app);
app.get('/boom', () => {
  throw new Error('secret internals at /etc/passwd');
});
app.get('/limited', () => {
  throw new RateLimitedError('SLOW_DOWN', 'Slow down', 7, { hint: 'Wait.' });
});
app.get('/large', () => {
  throw new PayloadTooLargeError('TOO_LARGE', 'The file is too large');
});
app.post('/echo', (request) => request.body);
app.get('/cut-off', () => {
  // As busboy words a multipart body that stops before its closing boundary.
  throw new Error('Unexpected end of multipart data');
});

afterEach(() => {
  lines.length = 0;
});

describe('error handler', () => {
  it('answers unexpected errors with a bare 500 and logs them with the stack', async () => {
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail: 'Internal server error', code: 'INTERNAL_ERROR' });
    expect(response.body).not.toContain('secret internals');
    expect(lines.join('')).toContain('secret internals');
    expect(lines.join('')).toContain('"stack"');
  });

  it('maps AppErrors to their status, with Retry-After for rate limits', async () => {
    const limited = await app.inject({ method: 'GET', url: '/limited' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('7');
    expect(limited.json()).toEqual({ detail: 'Slow down', code: 'SLOW_DOWN', hint: 'Wait.' });
    const large = await app.inject({ method: 'GET', url: '/large' });
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({ detail: 'The file is too large', code: 'TOO_LARGE' });
  });

  it('answers a malformed multipart body with 400 saying what is wrong, not 500', async () => {
    const response = await app.inject({ method: 'GET', url: '/cut-off' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'MALFORMED_MULTIPART',
      detail: 'The upload ends part-way through: the multipart body stops before its closing boundary',
    });
  });

  it('words Fastify request errors for a person', async () => {
    const empty = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'EMPTY_JSON_BODY' });
    const unsupported = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'x',
    });
    expect(unsupported.statusCode).toBe(415);
    expect(unsupported.json()).toMatchObject({ detail: 'Unsupported Content-Type: application/x-unknown' });
  });
});
