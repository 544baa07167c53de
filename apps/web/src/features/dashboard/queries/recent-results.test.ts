import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchRecentResults } from './recent-results';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : input.toString());

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('fetchRecentResults', () => {
  it('asks each list for its 5 newest runs and marks which result screen opens each', async () => {
    fetchMock.mockImplementation((input) => {
      const url = urlOf(input);
      if (url.includes('/functional/functional-test-results'))
        return Promise.resolve(
          json([
            {
              test_id: 'fc_1',
              plan_id: 'p2',
              test_name: 'Checkout API',
              status: 'completed',
              start_time: '2026-01-02T00:00:00.000Z',
            },
          ]),
        );
      return Promise.resolve(
        json([
          {
            test_id: 'r1',
            plan_id: null,
            test_name: '',
            status: 'failed',
            created_at: '2026-01-01T00:00:00Z',
          },
        ]),
      );
    });

    const results = await fetchRecentResults(new AbortController().signal);

    const urls = fetchMock.mock.calls.map(([input]) => new URL(urlOf(input), 'http://localhost'));
    expect(urls.map((url) => [url.pathname, url.searchParams.get('limit')]).sort()).toEqual([
      ['/api/functional/functional-test-results', '5'],
      ['/api/get-test-results', '5'],
    ]);
    expect(results).toEqual([
      {
        testId: 'r1',
        planId: undefined,
        name: undefined,
        createdAt: '2026-01-01T00:00:00Z',
        status: 'failed',
        kind: 'performance',
      },
      {
        testId: 'fc_1',
        planId: 'p2',
        name: 'Checkout API',
        createdAt: '2026-01-02T00:00:00.000Z',
        status: 'completed',
        kind: 'functional',
      },
    ]);
  });
});
