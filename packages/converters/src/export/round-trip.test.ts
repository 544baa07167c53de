import {
  type Authorization,
  PerfPlanSchema,
  type PerfPlan,
  type UrlEntry,
  inferContentType,
} from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { csvToPlan } from '../import/csv-to-plan';
import { postmanToPlan } from '../import/postman-to-plan';
import { xlsxToPlan } from '../import/xlsx-to-plan';
import { planToPostman } from './plan-to-postman';
import { planToCsv, planToXlsx } from './plan-to-table';

/**
 * Property-style round trips: random valid plans → export → the importer for that format → the same
 * steps. A seeded generator makes every failure reproducible: the message names the seed.
 */

/** mulberry32: small, fast, and the same sequence on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Gen {
  constructor(readonly next: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  text(alphabet: string, min: number, max: number): string {
    const chars = [...alphabet];
    let out = '';
    for (let i = this.int(min, max); i > 0; i--) out += this.pick(chars);
    return out;
  }
}

const WORD = 'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789';
/** Values users really type: punctuation that needs escaping in CSV, XML, JSON and URLs, and non-ASCII. */
const VALUE = `${WORD}-_.~ &=+?#/%"',;:<>{}[]()!$*éü한글日本€`;
const TOKEN = `${WORD}!#$%&'*+.^_\`|~-`;

/** A single line with no white space at either end (cells are read trimmed). */
function line(g: Gen, alphabet: string, min: number, max: number): string {
  const text = g.text(alphabet, min, max).replace(/\s+/g, ' ').trim();
  return text === '' ? 'x' : text;
}

function url(g: Gen): string {
  const scheme = g.pick(['http', 'https']);
  const host = g.pick(['127.0.0.1', 'api.example.com', 'localhost', '{{baseUrl}}']);
  const port = host.startsWith('{{') || g.chance(0.5) ? '' : `:${g.int(1024, 65535)}`;
  const segments = Array.from({ length: g.int(0, 4) }, () =>
    g.chance(0.15) ? `{{${g.pick(['id', 'userId', 'token'])}}}` : g.text(`${WORD}-_.~`, 1, 10),
  );
  const base = host.startsWith('{{') ? host : `${scheme}://${host}${port}`;
  return segments.length === 0 ? base : `${base}/${segments.join('/')}`;
}

function pairs(g: Gen, nameAlphabet: string, duplicates: boolean): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (let i = g.int(0, 4); i > 0; i--) {
    const name =
      duplicates && out.length > 0 && g.chance(0.3)
        ? (out[0]?.name ?? 'x')
        : `${line(g, nameAlphabet, 1, 12)}${out.length}`;
    out.push({ name, value: g.chance(0.1) ? '' : line(g, VALUE, 1, 24) });
  }
  return out;
}

function authorization(g: Gen): Authorization {
  const blank: Authorization = {
    type: 'none',
    token: '',
    username: '',
    password: '',
    keyName: '',
    keyValue: '',
    in: 'header',
    tokenUrl: '',
    scope: '',
  };
  switch (g.pick(['none', 'bearer', 'basic', 'api_key', 'oauth2'] as const)) {
    case 'none':
      return blank;
    case 'bearer':
      return { ...blank, type: 'bearer', token: line(g, `${WORD}._-`, 8, 40) };
    case 'basic':
      return { ...blank, type: 'basic', username: line(g, VALUE, 1, 12), password: line(g, VALUE, 1, 16) };
    case 'api_key':
      return {
        ...blank,
        type: 'api_key',
        keyName: line(g, TOKEN, 1, 12),
        keyValue: line(g, VALUE, 1, 24),
        in: g.pick(['header', 'query'] as const),
      };
    case 'oauth2':
      return {
        ...blank,
        type: 'oauth2',
        token: `${line(g, WORD, 4, 12)}:${line(g, VALUE, 4, 20)}`,
        tokenUrl: 'https://auth.example.com/oauth/token',
        scope: g.chance(0.5) ? 'read write' : '',
      };
  }
}

function payload(g: Gen): string {
  switch (g.int(0, 3)) {
    case 0:
      return '';
    case 1:
      return JSON.stringify({ name: line(g, VALUE, 1, 20), n: g.int(0, 1000), tags: ['a', 'b'] }, null, 2);
    case 2:
      return `<order id="${g.int(1, 99)}">${line(g, WORD, 1, 10)} &amp; more</order>`;
    default:
      return `plain text, with "quotes", a comma\nand a second line ${line(g, VALUE, 1, 10)}`;
  }
}

function step(g: Gen, index: number): UrlEntry {
  const method = g.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const);
  const extract = g.chance(0.4);
  const assertion = g.pick(['none', 'status', 'json', 'text'] as const);
  return {
    name: `${line(g, `${WORD} ,"'&<>é한`, 1, 20)} ${index}`,
    method,
    url: url(g),
    parameters: pairs(g, VALUE, g.chance(0.3)).map((p) => ({ key: p.name, value: p.value })),
    headers: pairs(g, TOKEN, g.chance(0.3)),
    authorization: authorization(g),
    payload: ['POST', 'PUT', 'PATCH'].includes(method) ? payload(g) : '',
    extractType: extract ? g.pick(['json', 'regex', 'text'] as const) : 'text',
    extractName: extract ? `var_${line(g, WORD, 1, 8)}` : '',
    extractValue: extract ? g.pick(['$.id', 'id=(\\d+)', '$.data[0].name']) : '',
    thinkTime: g.pick(['', '0', '250ms', '2s', '1.5', '5s']),
    transactionRate: g.chance(0.5) ? '' : g.int(0, 100),
    assertionType: assertion === 'none' ? 'json' : assertion,
    assertionPath: assertion === 'json' ? '$.status' : '',
    assertionValue: assertion === 'none' ? '' : assertion === 'status' ? '200' : line(g, VALUE, 1, 12),
    assertionOperator: g.pick(['equals', 'contains', 'regex', 'not_equals'] as const),
    timeout: g.int(1, 300),
    validations: [],
  };
}

function randomPlan(seed: number): PerfPlan {
  const g = new Gen(random(seed));
  return PerfPlanSchema.parse({
    name: `Round trip ${seed}`,
    tool: 'jmeter',
    concurrent_users: 1,
    duration: 1,
    urls: Array.from({ length: g.int(1, 6) }, (_, index) => step(g, index)),
  });
}

const SEEDS = Array.from({ length: 60 }, (_, i) => 1000 + i * 7919);

/**
 * Only the pairs the plan sends (a header or parameter with a blank name is never sent, DESIGN §4); no
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
