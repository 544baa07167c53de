import { PerfPlanSchema, type PerfPlan, type UrlEntry, inferContentType } from '@aqa/plan';
import { Gen, randomEntry } from '@aqa/plan/testing';
import { describe, expect, it } from 'vitest';
import { csvToPlan } from '../import/csv-to-plan';
import { postmanToPlan } from '../import/postman-to-plan';
import { xlsxToPlan } from '../import/xlsx-to-plan';
import { planToPostman } from './plan-to-postman';
import { planToCsv, planToXlsx } from './plan-to-table';

/**
 * Property-style round trips: random valid plans → export → the importer for that format → the same
 * steps. The seeded generator of @aqa/plan/testing makes every failure reproducible: the message names
 * the seed.
 */

function randomPlan(seed: number): PerfPlan {
  const g = Gen.of(seed);
  return PerfPlanSchema.parse({
    name: `Round trip ${seed}`,
    tool: 'jmeter',
    concurrent_users: 1,
    duration: 1,
    urls: Array.from({ length: g.int(1, 6) }, (_, index) => randomEntry(g, index)),
  });
}

const SEEDS = Array.from({ length: 60 }, (_, i) => 1000 + i * 7919);

/**
 * Only the pairs the plan sends (a header or parameter with a blank name is never sent, docs/design.md §4); no
 * think time is written as 0.
 */
function sent(entry: UrlEntry): UrlEntry {
  return {
    ...entry,
    thinkTime: entry.thinkTime === '' ? '0' : entry.thinkTime,
    headers: entry.headers.filter((h) => h.name.trim() !== ''),
    parameters: entry.parameters.filter((p) => p.key.trim() !== ''),
  };
}

describe('plan → CSV / Excel → plan', () => {
  it.each(SEEDS)('keeps every field of every step (seed %i)', (seed) => {
    const plan = randomPlan(seed);
    const expected = plan.urls.map(sent);
    const fromCsv = csvToPlan({ name: 'plan.csv', text: planToCsv(plan) });
    expect(fromCsv.steps, `seed ${seed}, CSV`).toEqual(expected);
    expect(fromCsv.warnings).toEqual([]);
    const fromXlsx = xlsxToPlan({ name: 'plan.xlsx', bytes: planToXlsx(plan) });
    expect(fromXlsx.steps, `seed ${seed}, Excel`).toEqual(expected);
  });
});

describe('plan → Postman collection → plan', () => {
  /** What a collection carries: the request. The rest comes back as the model's defaults. */
  function request(entry: UrlEntry) {
    const headers = entry.headers.filter((h) => h.name.trim() !== '');
    // The content type the plan infers from the body travels as the raw body's language, so the
    // importer writes it as a header: the same request on the wire.
    const inferred = entry.payload === '' ? undefined : inferContentType(entry.payload);
    if (inferred && !headers.some((h) => h.name.toLowerCase() === 'content-type')) {
      headers.push({ name: 'Content-Type', value: inferred });
    }
    return {
      name: entry.name,
      method: entry.method,
      url: entry.url,
      parameters: entry.parameters.filter((p) => p.key.trim() !== ''),
      headers,
      payload: entry.payload,
      authorization: entry.authorization,
    };
  }

  it.each(SEEDS)('keeps each request: method, URL, query, headers, body, auth (seed %i)', (seed) => {
    const plan = randomPlan(seed);
    const { collection } = planToPostman(plan);
    const imported = postmanToPlan({
      name: 'plan.postman_collection.json',
      text: JSON.stringify(collection),
    });
    expect(imported.steps.map(request), `seed ${seed}`).toEqual(plan.urls.map(request));
    expect(imported.info.title).toBe(plan.name);
  });

  it('names in warnings what a collection cannot hold', () => {
    const plan = PerfPlanSchema.parse({
      name: 'Checkout',
      tool: 'k6',
      concurrent_users: 1,
      duration: 1,
      urls: [
        {
          name: 'Login',
          method: 'POST',
          url: 'https://shop.example.com/login',
          payload: '{"user":"a"}',
          thinkTime: '2s',
          transactionRate: 50,
          extractType: 'json',
          extractName: 'token',
          extractValue: '$.token',
          assertionType: 'status',
          assertionValue: '200',
          timeout: 10,
        },
        { name: 'Home', url: 'https://shop.example.com/', thinkTime: '' },
      ],
    });
    const { warnings, collection } = planToPostman(plan);
    expect(warnings.map((w) => w.field)).toEqual([
      'urls[0].thinkTime',
      'urls[0].transactionRate',
      'urls[0].extractName',
      'urls[0].assertionType',
      'urls[0].timeout',
    ]);
    expect(warnings[0]?.message).toBe(
      'Login: think time 2s is not part of a Postman collection (set a delay in the Collection Runner)',
    );
    expect(collection).toMatchObject({
      info: {
        name: 'Checkout',
        schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
      },
      item: [
        {
          name: 'Login',
          request: {
            method: 'POST',
            body: { mode: 'raw', raw: '{"user":"a"}', options: { raw: { language: 'json' } } },
            url: { raw: 'https://shop.example.com/login', host: ['shop', 'example', 'com'], path: ['login'] },
          },
        },
        { name: 'Home', request: { method: 'GET', auth: { type: 'noauth' } } },
      ],
    });
  });
});
