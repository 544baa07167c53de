import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ITEM_PAGES, ParityApi } from './parity-api';
import { PARITY_DIR, runNewman, type AssertionOutcome, type NewmanRunInput } from './run-newman';

/*
 * The parity collections proven by Newman itself (README.md): each is run by real Newman against the
 * local API, and what Newman says of every assertion is what the collection was designed to produce.
 * AnybodyQA's runner is to be compared with these outcomes, assertion by assertion.
 */

const api = new ParityApi();
const ENVIRONMENT = join(PARITY_DIR, 'environments/local.postman_environment.json');
const collection = (name: string): string =>
  join(PARITY_DIR, 'collections', `${name}.postman_collection.json`);

beforeAll(async () => {
  await api.start();
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => {
  api.reset();
});

function run(input: Omit<NewmanRunInput, 'envVar'>): Promise<AssertionOutcome[]> {
  return runNewman({ environment: ENVIRONMENT, ...input, envVar: { baseUrl: api.origin } });
}

/** The failed assertions as "iteration folder/request: test". */
const failed = (outcomes: AssertionOutcome[]): string[] =>
  outcomes
    .filter((o) => !o.passed)
    .map((o) => `${o.iteration} ${[...o.folderPath, o.request].join('/')}: ${o.assertion}`);

const TIMEOUT_MS = 60_000;

describe('the Postman parity collections, run by Newman', () => {
  it(
    'shop (pm.*): 51 assertions over 11 requests, 3 failing as designed',
    async () => {
      const outcomes = await run({ collection: collection('shop') });
      expect(outcomes).toHaveLength(51);
      expect(failed(outcomes)).toEqual([
        '1 Auth/Who am I without a token: Has a user id',
        '1 Orders/Lookup/Get order: Order is shipped',
        '1 Echo: Body has a discount',
      ]);
      expect(outcomes.find((o) => o.assertion === 'Order is shipped')?.error).toBe(
        "expected 'open' to equal 'shipped'",
      );
      // The collection's test runs after every request; the Orders folder's after its three, the
      // Lookup subfolder's after its two.
      expect(outcomes.filter((o) => o.assertion === 'Response time is under 5 s')).toHaveLength(11);
      expect(outcomes.filter((o) => o.assertion === 'Orders answer JSON')).toHaveLength(3);
      expect(outcomes.filter((o) => o.assertion === 'Lookup answers within 2 s')).toHaveLength(2);
      expect(outcomes.find((o) => o.request === 'Get order')?.folderPath).toEqual(['Orders', 'Lookup']);
      // The token chained into the bearer calls, the sendRequest, the cookie and the followed redirect
      // reached the API: 11 requests, the pre-request's /health and the redirect's target.
      expect(api.count).toBe(13);
      expect(api.byPath.get('/health')).toBe(1);
      expect(api.byPath.get('/profile-page')).toBe(1);
      expect(api.byPath.get('/orders/ord-2')).toBe(1);
    },
    TIMEOUT_MS,
  );

  it(
    'shop, its Session folder alone: 9 assertions, none failing (the cookie jar and the redirect)',
    async () => {
      const outcomes = await run({ collection: collection('shop'), folder: 'Session' });
      expect(outcomes).toHaveLength(9);
      expect(failed(outcomes)).toEqual([]);
      expect(new Set(outcomes.map((o) => o.request))).toEqual(
        new Set(['Start session', 'Cart needs the session cookie', 'Old profile link']),
      );
      expect(api.count).toBe(4);
    },
    TIMEOUT_MS,
  );

  it(
    'legacy: 14 assertions, the setNextRequest loop reading every page, 1 failing as designed',
    async () => {
      const outcomes = await run({ collection: collection('legacy') });
      expect(outcomes).toHaveLength(14);
      expect(failed(outcomes)).toEqual(['1 Summary: Has 4 roles']);
      expect(outcomes.filter((o) => o.request === 'List page').map((o) => o.assertion)).toEqual([
        'Status is 200',
        'Page 1 has 2 items',
        'Status is 200',
        'Page 2 has 2 items',
        'Status is 200',
        'Page 3 has 2 items',
      ]);
      // "Never reached" is jumped over, "After the end" never run: setNextRequest(null) ended the run.
      expect(outcomes.some((o) => o.request === 'Never reached' || o.request === 'After the end')).toBe(
        false,
      );
      expect(api.byPath.get('/items')).toBe(ITEM_PAGES);
      expect(api.byPath.get('/health')).toBeUndefined();
    },
    TIMEOUT_MS,
  );

  it(
    'data-driven with the CSV: 11 assertions over 3 iterations, 1 failing as designed',
    async () => {
      const outcomes = await run({
        collection: collection('data-driven'),
        data: join(PARITY_DIR, 'data-files/orders.csv'),
      });
      expect(outcomes).toHaveLength(11);
      expect(outcomes.map((o) => o.iteration)).toEqual([1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
      expect(failed(outcomes)).toEqual(['2 Create order from row: Status is 201 for pen']);
      expect(outcomes.filter((o) => o.iteration === 3).map((o) => o.assertion)).toEqual([
        'Logged in',
        'Status is 400 for ',
        'Error is explained',
      ]);
      expect(api.byPath.get('/orders')).toBe(3);
    },
    TIMEOUT_MS,
  );

  it(
    'data-driven with the JSON data file: 8 assertions over 2 iterations, none failing',
    async () => {
      const outcomes = await run({
        collection: collection('data-driven'),
        data: join(PARITY_DIR, 'data-files/orders.json'),
      });
      expect(outcomes).toHaveLength(8);
      expect(failed(outcomes)).toEqual([]);
      expect(outcomes.map((o) => o.assertion)).toContain('Status is 422 for ink');
      expect(api.byPath.get('/orders')).toBe(2);
    },
    TIMEOUT_MS,
  );
});
