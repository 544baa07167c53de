import {
  PerfPlanSchema,
  withProfileTotals,
  noAuthorization,
  type Authorization,
  type PerfPlan,
  type PerfPlanInput,
  type UrlEntry,
  type ValidationItem,
} from '../perf-plan';
import { seededRandom } from '../test-data';

/*
 * Seeded random valid plans for property-style tests (round trips through exports, imports and the
 * plan form). The same seed gives the same plan on every machine, so a failure names its seed and can be
 * replayed. Values are what users really type: punctuation that needs escaping in CSV, XML, JSON and
 * URLs, and non-ASCII text.
 */

// The model's own seeded generator (test-data.ts shuffles test data with it), kept exported from here.
export { seededRandom };

export class Gen {
  constructor(readonly next: () => number) {}
  static of(seed: number): Gen {
    return new Gen(seededRandom(seed));
  }
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

export const WORD = 'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789';
/** Values users really type: punctuation that needs escaping in CSV, XML, JSON and URLs, and non-ASCII. */
export const VALUE = `${WORD}-_.~ &=+?#/%"',;:<>{}[]()!$*éü한글日本€`;
/** Characters of an HTTP header name. */
export const TOKEN = `${WORD}!#$%&'*+.^_\`|~-`;

/** A single line with no white space at either end (cells are read trimmed). */
export function line(g: Gen, alphabet: string, min: number, max: number): string {
  const text = g.text(alphabet, min, max).replace(/\s+/g, ' ').trim();
  return text === '' ? 'x' : text;
}

export function randomUrl(g: Gen): string {
  const scheme = g.pick(['http', 'https']);
  const host = g.pick(['127.0.0.1', 'api.example.com', 'localhost', '{{baseUrl}}']);
  const port = host.startsWith('{{') || g.chance(0.5) ? '' : `:${g.int(1024, 65535)}`;
  const segments = Array.from({ length: g.int(0, 4) }, () =>
    g.chance(0.15) ? `{{${g.pick(['id', 'userId', 'token'])}}}` : g.text(`${WORD}-_.~`, 1, 10),
  );
  const base = host.startsWith('{{') ? host : `${scheme}://${host}${port}`;
  return segments.length === 0 ? base : `${base}/${segments.join('/')}`;
}

/** Name/value pairs with names never blank (a value may be); `duplicates` repeats the first name. */
export function randomPairs(
  g: Gen,
  nameAlphabet: string,
  duplicates: boolean,
): { name: string; value: string }[] {
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

export function randomAuthorization(g: Gen): Authorization {
  const blank = noAuthorization();
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

export function randomPayload(g: Gen): string {
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

const VALIDATION_SAMPLES: readonly Pick<ValidationItem, 'type' | 'expected_value'>[] = [
  { type: 'status_code', expected_value: '200' },
  { type: 'response_time', expected_value: '500' },
  { type: 'json_path', expected_value: '$.data.id' },
  { type: 'contains_text', expected_value: 'ok' },
  { type: 'header_value', expected_value: 'Content-Type: application/json' },
  { type: 'response_size', expected_value: '1024' },
];

export function randomValidations(g: Gen): ValidationItem[] {
  return Array.from({ length: g.int(0, 3) }, (_, i) => {
    const sample = g.pick(VALIDATION_SAMPLES);
    return {
      id: `v${i}-${g.int(1, 9999)}`,
      name: `Validation ${i + 1}`,
      ...sample,
      description: g.chance(0.5) ? '' : line(g, VALUE, 1, 30),
    };
  });
}

/**
 * One API call with every field set at random. Validation items only when asked: formats that cannot
 * hold them (CSV, Postman) leave them out, and asking for none draws no number, so their sequences stay.
 */
export function randomEntry(g: Gen, index: number, options: { validations?: boolean } = {}): UrlEntry {
  const method = g.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const);
  const extract = g.chance(0.4);
  const assertion = g.pick(['none', 'status', 'json', 'text'] as const);
  return {
    name: `${line(g, `${WORD} ,"'&<>é한`, 1, 20)} ${index}`,
    method,
    url: randomUrl(g),
    parameters: randomPairs(g, VALUE, g.chance(0.3)).map((p) => ({ key: p.name, value: p.value })),
    headers: randomPairs(g, TOKEN, g.chance(0.3)),
    authorization: randomAuthorization(g),
    payload: ['POST', 'PUT', 'PATCH'].includes(method) ? randomPayload(g) : '',
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
    validations: options.validations ? randomValidations(g) : [],
  };
}

/**
 * A whole plan as a user saves it: every field the user sets, the optional ones present or absent at
 * random (absent, never blank: a blank optional field is the same plan as an absent one). Fields the
 * server sets (id, user_email, created_at, updated_at) and the uploaded script are left out.
 */
export function randomPerfPlan(seed: number): PerfPlan {
  const g = Gen.of(seed);
  const input: PerfPlanInput = {
    name: `${line(g, `${WORD} ,"'&<>é한`, 1, 30)} ${seed}`,
    tool: g.pick(['jmeter', 'k6', 'locust', 'taurus', 'soapui'] as const),
    concurrent_users: g.int(1, 1000),
    duration: g.int(1, 1440),
    urls: Array.from({ length: g.int(1, 5) }, (_, index) => randomEntry(g, index, { validations: true })),
    source_page: g.pick(['url-input', 'script-input'] as const),
  };
  if (g.chance(0.6)) input.description = line(g, VALUE, 1, 80);
  if (g.chance(0.5)) input.test_type = g.pick(['load', 'stress', 'soak', 'spike']);
  if (g.chance(0.5)) {
    input.thresholds = Array.from({ length: g.int(1, 3) }, () =>
      g.pick(['p95<300', 'p99<1000', 'error_rate<1%', 'avg<200', 'rps>50']),
    );
  }
  if (g.chance(0.5)) {
    input.abort_thresholds = Array.from({ length: g.int(1, 3) }, () =>
      g.pick(['p95<2000', 'error_rate<5%', 'p99<3s', 'rps>=1']),
    );
  }
  if (g.chance(0.3)) {
    const open = g.chance(0.5);
    input.load_profile = {
      model: open ? 'arrival_rate' : 'users',
      stages: Array.from({ length: g.int(1, 4) }, (_, i) => ({
        duration: g.pick(['0s', '10s', '30s', '2m', '500ms', '1h']),
        // The first stage rises above 0, so every profile has some load.
        target: i === 0 ? g.int(1, 200) : g.int(0, 200),
      })),
      ...(g.chance(0.5) ? { graceful_stop: g.pick(['0s', '5s', '30s']) } : {}),
      ...(open && g.chance(0.5) ? { max_users: g.int(1, 1000) } : {}),
    };
    // A profile of only 0 s stages has no length: give its last stage one.
    if (input.load_profile.stages.every((stage) => stage.duration === '0s'))
      input.load_profile.stages[0]!.duration = '10s';
  }
  if (g.chance(0.3)) {
    // Test data (docs/adr/0027-load-profiles.md "Test data"): a CSV whose columns the plan's templates may read.
    const rows = Array.from({ length: g.int(1, 5) }, (_, i) => `${i + 1},${g.pick(['a', 'b c', '"x,y"'])}`);
    input.data_files = { 'users.csv': ['id,name', ...rows].join('\n') };
    input.data_sources = [
      {
        path: 'users.csv',
        ...(g.chance(0.5) ? { loop: g.chance(0.5) } : {}),
        ...(g.chance(0.5) ? { random_order: g.chance(0.5) } : {}),
        ...(g.chance(0.5) ? { share: g.pick(['all', 'user'] as const) } : {}),
        ...(g.chance(0.3) ? { delimiter: ',' } : {}),
      },
    ];
  }
  // Drawn last, so that the draws above (and the plans other tests pinned by seed) stay as they were.
  if (g.chance(0.3)) {
    const count = Math.min(input.urls.length, g.int(1, 3));
    input.flows = Array.from({ length: count }, (_, i) => ({
      name: `${line(g, `${WORD} -_é한`, 1, 12)} ${i}`,
      weight: g.int(1, 1000),
    }));
    // Every flow holds a call: the first `count` calls one each, the rest at random.
    const flows = input.flows;
    input.urls = input.urls.map((entry, i) => ({
      ...entry,
      flow: flows[i < count ? i : g.int(0, count - 1)]!.name,
    }));
  }
  // concurrent_users and duration as the server keeps them for a profile (withProfileTotals).
  return withProfileTotals(PerfPlanSchema.parse(input));
}
