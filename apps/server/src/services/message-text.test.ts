import { formatMs, type ResultSummary } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { CALLS_WORDING, functionalRunMessage, loadRunMessage, STEPS_WORDING } from './message-text';

const summary: ResultSummary = {
  concurrent_users: 10,
  requests_per_second: 41.5,
  average_response_time: 80,
  error_rate: 2.5,
  total_requests: 12345,
  successful_requests: 12036,
  failed_requests: 309,
  percentile_50: 70,
  percentile_90: 150,
  percentile_95: 412.4,
  percentile_99: 900,
  percentile_999: 1200,
  min_response_time: 3,
  max_response_time: 1500,
  avg_bandwidth: 12,
  test_duration: 300,
};

describe('loadRunMessage', () => {
  it('names each broken threshold with the measured value, and the figures', () => {
    const text = loadRunMessage({
      name: 'Checkout',
      status: 'completed',
      summary,
      error: null,
      thresholds: ['p95<300', 'error_rate<1%', 'rps>=10'],
    });
    expect(text).toEqual({
      kind: 'threshold_failed',
      test_type: 'load',
      name: 'Checkout',
      title: 'Checkout load test broke 2 thresholds',
      body: 'Broke p95<300 (was 412 ms), error_rate<1% (was 2.5%) · 12,345 requests · error rate 2.5% · p95 412 ms',
      // Each part of the body as a code and parameters (docs/adr/0025-phrases.md).
      body_phrases: [
        {
          code: 'message.broke',
          params: {
            thresholds: [
              { code: 'message.brokeOne', params: { threshold: 'p95<300', actual: '412 ms' } },
              { code: 'message.brokeOne', params: { threshold: 'error_rate<1%', actual: '2.5%' } },
            ],
          },
        },
        {
          code: 'message.loadFigures',
          params: { count: 12345, requests: '12,345', errorRate: '2.5', p95: '412 ms' },
        },
      ],
    });
  });

  it('says thresholds held, and which could not be read', () => {
    const text = loadRunMessage({
      name: 'Checkout',
      status: 'completed',
      summary,
      error: null,
      thresholds: ['p95<1s', 'latency<3'],
    });
    expect(text.kind).toBe('completed');
    expect(text.title).toBe('Checkout load test completed');
    expect(text.body).toMatch(
      /^Threshold held · Not checked: threshold "latency<3": unknown metric "latency"/,
    );
  });

  it('judges a scoped threshold on its API, and says when a scope names none', () => {
    const row = (name: string, p95: number) => ({
      name,
      label: `GET http://x/${name}`,
      total_requests: 100,
      failed_requests: 0,
      average_response_time: p95 / 2,
      percentile_95: p95,
      percentile_99: p95,
      error_rate: 0,
    });
    const text = loadRunMessage({
      name: 'Checkout',
      status: 'completed',
      summary,
      error: null,
      thresholds: ['Login: p95<300', 'Search: p95<300', 'Logout: p95<300'],
      api_results: [row('Login', 120), row('Search', 640)],
    });
    expect(text.kind).toBe('threshold_failed');
    expect(text.title).toBe('Checkout load test broke a threshold');
    expect(text.body).toBe(
      'Broke Search: p95<300 (was 640 ms) · Not checked: threshold "Logout: p95<300": the plan has no API named "Logout"; its APIs are "Login", "Search" · 12,345 requests · error rate 2.5% · p95 412 ms',
    );
  });

  it('does not judge a run that ran short, and quotes why it ended on one line', () => {
    const text = loadRunMessage({
      name: 'Nightly',
      status: 'failed',
      summary: null,
      error: 'k6 exited with code 107:\n  bad script',
      thresholds: ['p95<1'],
    });
    expect(text).toMatchObject({
      kind: 'failed',
      title: 'Nightly load test failed',
      body: 'No requests were measured · k6 exited with code 107: bad script',
    });
  });
});

describe('functionalRunMessage', () => {
  it('counts an API or script run in calls, with its failed validations', () => {
    const text = functionalRunMessage(
      {
        name: 'Login',
        status: 'failed',
        summary: { total_requests: 4, successful_requests: 2, failed_requests: 2, validation_failures: 3 },
        error: null,
      },
      CALLS_WORDING,
    );
    expect(text).toMatchObject({
      kind: 'failed',
      test_type: 'api',
      title: 'Login API test failed',
      body: '4 calls: 2 passed, 2 failed · 3 validations failed',
    });
  });

  it('counts a UI run in steps', () => {
    const text = functionalRunMessage(
      {
        name: 'Sign-up',
        status: 'stopped',
        summary: { total_requests: 1, successful_requests: 1, failed_requests: 0, validation_failures: 0 },
        error: 'Stopped because the server shut down',
      },
      STEPS_WORDING,
    );
    expect(text).toEqual({
      kind: 'stopped',
      test_type: 'ui',
      name: 'Sign-up',
      title: 'Sign-up UI test was stopped',
      body: '1 step: 1 passed, 0 failed · Stopped because the server shut down',
      // An error with no phrase of its own (an older row's) travels as its words.
      body_phrases: [
        { code: 'message.steps', params: { count: 1, total: '1', passed: '1', failed: '0' } },
        { code: 'raw', params: { text: 'Stopped because the server shut down' } },
      ],
    });
  });
});

it('rounds milliseconds as the result screen does', () => {
  expect(formatMs(1234.6)).toBe('1,235 ms');
  expect(formatMs(12.64)).toBe('12.6 ms');
});
