import { contract } from '@aqa/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTranslate } from '@/i18n';
import { errorDetailMessage, friendlyErrorMessage } from '@/i18n/error-messages';
import { headersOf, json } from '@/test/render';
import { api, ApiError, apiRequest, REQUEST_TIMEOUT_MS, upload } from './api';
import { readSession, saveSession } from './session';

const en = createTranslate('en');
const ko = createTranslate('ko');

function stubFetch(answer: Response | (() => Promise<Response>)) {
  const mock = vi.fn((_url: string, _init?: RequestInit) =>
    typeof answer === 'function' ? answer() : Promise.resolve(answer),
  );
  vi.stubGlobal('fetch', mock);
  return mock;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('apiRequest', () => {
  it('calls /api + path with a JSON body, a JSON content type and the session token', async () => {
    saveSession({ token: 'tok-1', user: { username: 'a@b.co', email: 'a@b.co' } });
    const fetchMock = stubFetch(json({ ok: true }));
    await expect(api.post('/things', { name: 'x' })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/things');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"name":"x"}');
    expect(headersOf(init)['Content-Type']).toBe('application/json');
    expect(headersOf(init).Authorization).toBe('Bearer tok-1');
  });

  it('sends uploads as FormData without a content type', async () => {
    const fetchMock = stubFetch(json({ apis: [] }));
    const form = new FormData();
    form.append('file', new Blob(['{}']), 'swagger.json');
    await upload(contract.imports.swagger, form);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/parse-swagger');
    expect(init?.body).toBe(form);
    expect(headersOf(init)['Content-Type']).toBeUndefined();
  });

  it('sends no token on public calls', async () => {
    saveSession({ token: 'tok-1', user: { username: 'a@b.co', email: 'a@b.co' } });
    const fetchMock = stubFetch(json({ status: 'ok' }));
    await api.get('/health', { auth: false });
    expect(headersOf(fetchMock.mock.calls[0]![1]).Authorization).toBeUndefined();
  });

  it("uses the server's detail as the error message", async () => {
    stubFetch(json({ detail: 'Invalid username or password' }, 401, 'Unauthorized'));
    const error = await failure(api.post('/login', {}, { auth: false }));
    expect(error.message).toBe('Invalid username or password');
    expect(error.detail).toBe('Invalid username or password');
    expect(error.status).toBe(401);
    expect(error.kind).toBe('http');
  });

  it('falls back to "HTTP {status}: {statusText}" without a detail', async () => {
    stubFetch(new Response('<html>oops</html>', { status: 502, statusText: 'Bad Gateway' }));
    expect((await failure(api.get('/x'))).message).toBe('HTTP 502: Bad Gateway');
    stubFetch(json({ other: 1 }, 500, 'Internal Server Error'));
    expect((await failure(api.get('/x'))).message).toBe('HTTP 500: Internal Server Error');
  });

  it('keeps the field errors of a 400 answer', async () => {
    stubFetch(
      json(
        { detail: 'Invalid registration', errors: [{ field: 'email', message: 'Email is required' }] },
        400,
        'Bad Request',
      ),
    );
    const error = await failure(api.post('/register', {}));
    expect(error.fieldErrors).toEqual([{ field: 'email', message: 'Email is required' }]);
  });

  it('reports a non-JSON body on an OK answer as "Invalid JSON response: ..."', async () => {
    stubFetch(
      new Response('<!doctype html><html>', { status: 200, headers: { 'Content-Type': 'application/json' } }),
    );
    const error = await failure(api.get('/plans'));
    expect(error.kind).toBe('parse');
    expect(error.message).toMatch(/^Invalid JSON response: <!doctype html>/);
  });

  it('returns undefined for 204 No Content', async () => {
    stubFetch(new Response(null, { status: 204 }));
    await expect(api.post('/logout')).resolves.toBeUndefined();
  });

  it('gives up after 30 seconds', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init?: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    );
    const pending = failure(apiRequest('/slow'));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error.kind).toBe('timeout');
    expect(friendlyErrorMessage(error, en)).toBe(
      'The server did not answer within 30 seconds. Please try again.',
    );
  });

  it('turns a failed fetch into a network error', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await failure(api.get('/x'));
    expect(error.kind).toBe('network');
    expect(error.status).toBe(0);
  });

  it('ends the session on a 401 answer to a protected call, not to a public one', async () => {
    const user = { username: 'a@b.co', email: 'a@b.co' };
    saveSession({ token: 'tok-1', user });
    stubFetch(json({ detail: 'Invalid username or password' }, 401, 'Unauthorized'));
    await failure(api.post('/login', {}, { auth: false }));
    expect(readSession()).not.toBeNull();

    stubFetch(json({ detail: 'Session expired' }, 401, 'Unauthorized'));
    await failure(api.get('/me'));
    expect(readSession()).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('friendly error messages (docs/reference/01-authoring.md §8)', () => {
  const http = (status: number, message: string) => new ApiError({ kind: 'http', status, message });

  it('maps a failed fetch to "cannot connect"', () => {
    const error = new ApiError({ kind: 'network', status: 0, message: 'Failed to fetch' });
    expect(friendlyErrorMessage(error, en)).toBe(
      'Cannot connect to the server. Please check that it is running.',
    );
    expect(friendlyErrorMessage(error, ko)).toBe(
      '서버에 연결할 수 없습니다. 서버가 실행 중인지 확인해 주세요.',
    );
    expect(friendlyErrorMessage(new TypeError('Failed to fetch'), en)).toBe(
      'Cannot connect to the server. Please check that it is running.',
    );
  });

  it('maps 400, 404 and 500 to their texts in both languages', () => {
    expect(friendlyErrorMessage(http(400, 'x'), en)).toBe('Bad request. Please check your input.');
    expect(friendlyErrorMessage(http(400, 'x'), ko)).toBe('잘못된 요청입니다. 입력 내용을 확인해 주세요.');
    expect(friendlyErrorMessage(http(404, 'x'), en)).toBe('The requested resource was not found.');
    expect(friendlyErrorMessage(http(404, 'x'), ko)).toBe('요청한 리소스를 찾을 수 없습니다.');
    expect(friendlyErrorMessage(http(500, 'x'), en)).toBe(
      'A server error occurred. Please try again shortly.',
    );
    expect(friendlyErrorMessage(http(500, 'x'), ko)).toBe(
      '서버 오류가 발생했습니다. 잠시 후 다시 시도해 주세요.',
    );
  });

  it('otherwise shows the message (translated when known), else "unknown error"', () => {
    expect(friendlyErrorMessage(http(401, 'Invalid username or password'), en)).toBe(
      'Invalid username or password',
    );
    expect(friendlyErrorMessage(http(401, 'Invalid username or password'), ko)).toBe(
      '사용자 이름 또는 비밀번호가 올바르지 않습니다',
    );
    expect(friendlyErrorMessage(http(429, 'Too many attempts, wait 60 s'), en)).toBe(
      'Too many attempts, wait 60 s',
    );
    expect(friendlyErrorMessage(new Error('Something odd'), en)).toBe('Something odd');
    expect(friendlyErrorMessage('nope', en)).toBe('An unknown error occurred.');
    expect(friendlyErrorMessage(new Error(''), ko)).toBe('알 수 없는 오류가 발생했습니다.');
  });

  it('inline form messages prefer the server detail over the generic 400 text', () => {
    expect(errorDetailMessage(http(400, 'Current password is incorrect'), en)).toBe(
      'Current password is incorrect',
    );
    expect(errorDetailMessage(http(400, 'HTTP 400: Bad Request'), en)).toBe(
      'Bad request. Please check your input.',
    );
  });
});
