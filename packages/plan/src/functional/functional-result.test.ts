import { describe, expect, it } from 'vitest';
import {
  EVIDENCE_BODY_LIMIT_BYTES,
  FunctionalResultSchema,
  FunctionalSaveResponseSchema,
  FunctionalStatusResponseSchema,
  functionalStatusKind,
  isFunctionalRunOver,
  maskSecretHeaders,
  type FunctionalResult,
} from './functional-result';

const result: FunctionalResult = {
  test_id: 'fc_1',
  plan_id: 'p1',
  test_name: 'Smoke',
  description: '',
  status: 'failed',
  test_type: 'functional',
  source: 'url_input',
  start_time: '2026-01-01T00:00:00.000Z',
  end_time: '2026-01-01T00:00:02.000Z',
  error: null,
  summary: { total_requests: 2, successful_requests: 1, failed_requests: 1, validation_failures: 1 },
  validation_results: [
    {
      api_name: 'Users',
      method: 'GET',
      url: 'https://api.test/users',
      status_code: 401,
      response_time: 12.5,
      success: false,
      iteration: 1,
      user: 1,
      validation_details: [
        {
          type: 'status_code',
          expected: '200',
          actual: '401',
          passed: false,
          message: 'expected status 200, got 401',
        },
      ],
      timings: { dns: 1, connect: 2, tls: 3, ttfb: 5, download: 1.5 },
      evidence: {
        request: {
          method: 'GET',
          url: 'https://api.test/users',
          headers: { Authorization: '***' },
          body: '',
        },
        response: { status: 401, headers: { 'content-type': 'text/plain' }, body: 'no', truncated: false },
      },
    },
    {
      api_name: 'Down',
      method: 'GET',
      url: 'http://127.0.0.1:1/',
      status_code: null,
      response_time: 0,
      success: false,
      error: 'Connection refused',
      validation_details: [
        {
          type: 'status_code',
          expected: '200',
          actual: null,
          passed: false,
          message: 'no response: Connection refused',
        },
      ],
      evidence: {
        request: { method: 'GET', url: 'http://127.0.0.1:1/', headers: {}, body: '' },
        response: null,
      },
    },
  ],
  api_results: [
    {
      name: 'Users',
      status: 'failed',
      method: 'GET',
      url: 'https://api.test/users',
      response_time: 12.5,
      status_code: 401,
      validation_results: [{ name: 'status_code', passed: false }],
    },
  ],
  timeline_data: [{ time: 0, response_time: 12.5, requests: 2, failures: 1 }],
};

describe('FunctionalResultSchema', () => {
  it('reads back a full result through JSON unchanged', () => {
    expect(FunctionalResultSchema.parse(JSON.parse(JSON.stringify(result)))).toEqual(result);
  });

  it('needs no timeline', () => {
    const { timeline_data: _, ...rest } = result;
    expect(FunctionalResultSchema.parse(rest).timeline_data).toEqual([]);
  });

  it('knows only its five statuses', () => {
    expect(FunctionalResultSchema.safeParse({ ...result, status: 'processing' }).success).toBe(false);
    expect(FunctionalResultSchema.parse({ ...result, status: 'interrupted' }).status).toBe('interrupted');
    expect(functionalStatusKind('running')).toBe('running');
    expect(functionalStatusKind('interrupted')).toBe('interrupted');
    expect(functionalStatusKind('processing')).toBe('unknown');
    expect(functionalStatusKind(undefined)).toBe('unknown');
    expect(['running', 'completed', 'failed', 'stopped', 'interrupted'].filter(isFunctionalRunOver)).toEqual([
      'completed',
      'failed',
      'interrupted',
    ]);
  });

  it('keeps 64 KB of a body as evidence', () => {
    expect(EVIDENCE_BODY_LIMIT_BYTES).toBe(65536);
  });
});

describe('call answers', () => {
  it('save-config answers id, test_id and version; get-test-status answers a status', () => {
    expect(FunctionalSaveResponseSchema.parse({ id: 'p1', test_id: 'p1', version: 1 })).toEqual({
      id: 'p1',
      test_id: 'p1',
      version: 1,
    });
    expect(FunctionalStatusResponseSchema.parse({ test_id: 'fc_1', status: 'stopped' }).status).toBe(
      'stopped',
    );
  });
});

describe('maskSecretHeaders', () => {
  it('hides credentials, cookies, keys and tokens and keeps the rest', () => {
    expect(
      maskSecretHeaders({
        Authorization: 'Bearer abc',
        cookie: 'sid=1',
        'Set-Cookie': 'sid=2',
        'X-API-Key': 'k',
        'x-auth-token': 't',
        'Content-Type': 'application/json',
        'X-Request-Id': '42',
      }),
    ).toEqual({
      Authorization: '***',
      cookie: '***',
      'Set-Cookie': '***',
      'X-API-Key': '***',
      'x-auth-token': '***',
      'Content-Type': 'application/json',
      'X-Request-Id': '42',
    });
  });
});
