import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin, removeDir, startTestServer, type TestServer } from './helpers';
import { multipartBody, type Part } from './multipart-body';

/**
 * Every bad upload a person or a probe can send, on every parse route: each is answered with a 4xx whose
 * `detail` says what is wrong and a `code`, never a 500, and nothing is stored (docs/design.md §11
 * "Bad input").
 */

const ROUTES = [
  '/api/parse-swagger',
  '/api/parse-postman',
  '/api/parse-har',
  '/api/parse-taurus',
  '/api/parse-curl',
  '/api/functional/parse-file',
] as const;

interface Sent {
  payload: Buffer | string;
  headers: Record<string, string>;
}

interface BadUpload {
  name: string;
  send: () => Sent;
  /** The statuses allowed: 400 unless the case says otherwise. */
  statuses?: number[];
  /** What the detail must say. */
  detail: RegExp;
  /** What it says on parse-curl, which reads any file as curl commands, when that differs. */
  curl?: RegExp;
}

const file = (name: string, content: Buffer | string): Part => ({ name: 'file', filename: name, content });
const one = (part: Part): Sent => multipartBody([part]);

/** Nine levels of nine aliases each: a billion "lol"s once expanded (the "billion laughs" attack). */
function billionLaughs(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = 'abcdefghi';
  for (let i = 1; i < names.length; i++) {
    const ref = `*${names[i - 1]}`;
    lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(ref).join(',')}]`);
  }
  return `openapi: 3.0.0\ninfo: {title: lol, version: "1"}\nx-lol:\n${lines.map((l) => `  ${l}`).join('\n')}\npaths: {}\n`;
}

/** A well-formed body cut off part-way through its file. */
function cutOff(within: 'content' | 'headers'): Sent {
  const { payload, headers } = one(file('petstore.yaml', 'openapi: 3.0.0\n'.repeat(200)));
  const at = within === 'content' ? payload.length - 300 : 40;
  return { payload: Buffer.from(payload).subarray(0, at), headers };
}

const HUGE = Buffer.alloc(25 * 1024 * 1024 + 1, 0x20);

const CASES: BadUpload[] = [
  {
    name: 'a YAML alias bomb',
    detail: /^lol\.yaml: YAML cannot be read: its aliases \(\*name\) expand to more than 1000 copies/,
    curl: /no curl command was found/,
    send: () => one(file('lol.yaml', billionLaughs())),
  },
  {
    name: 'JSON nested 100,000 deep, never closed',
    detail: /^deep\.json: the document is nested too deeply to read/,
    curl: /no curl command was found/,
    send: () => one(file('deep.json', '['.repeat(100_000))),
  },
  {
    name: 'JSON nested 100,000 deep',
    detail: /^deep\.json: the document is nested too deeply to read/,
    curl: /no curl command was found/,
    send: () => one(file('deep.json', '['.repeat(100_000) + ']'.repeat(100_000))),
  },
  {
    name: 'YAML nested 100,000 deep',
    detail: /^deep\.yaml: the document is nested too deeply to read/,
    curl: /no curl command was found/,
    send: () => one(file('deep.yaml', `a:\n${'- '.repeat(100_000)}x\n`)),
  },
  {
    name: 'multipart without a boundary',
    detail: /names no boundary/,
    send: () => ({
      payload: one(file('a.json', '{}')).payload,
      headers: { 'content-type': 'multipart/form-data' },
    }),
  },
  {
    name: 'multipart with an empty boundary',
    detail: /names no boundary/,
    send: () => ({
      payload: one(file('a.json', '{}')).payload,
      headers: { 'content-type': 'multipart/form-data; boundary=' },
    }),
  },
  {
    name: 'multipart with a 300-character boundary',
    detail: /boundary is longer than the 70 characters/,
    send: () => {
      const boundary = 'b'.repeat(300);
      return {
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.json"\r\n\r\n{}\r\n--${boundary}--\r\n`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      };
    },
  },
  {
    name: 'a part named __proto__',
    detail: /named after a JavaScript property/,
    send: () => one({ name: '__proto__', content: 'x' }),
  },
  { name: 'a part cut off in its content', detail: /ends part-way through/, send: () => cutOff('content') },
  { name: 'a part cut off in its headers', detail: /ends part-way through/, send: () => cutOff('headers') },
  {
    name: 'a wrong Content-Type',
    detail: /^Unsupported Content-Type: application\/xml/,
    send: () => ({ payload: '<a/>', headers: { 'content-type': 'application/xml' } }),
    statuses: [415],
  },
  {
    name: 'a text/plain body',
    detail: /^Please (select a|paste a curl)/,
    send: () => ({ payload: 'openapi: 3.0.0', headers: { 'content-type': 'text/plain' } }),
    statuses: [400, 415],
  },
  {
    name: 'an empty multipart body',
    detail: /^Please (select a|paste a curl)/,
    send: () => ({ payload: '', headers: one(file('a', 'x')).headers }),
  },
  {
    name: 'an empty file',
    detail: /^empty\.json: the file is empty/,
    send: () => one(file('empty.json', '')),
  },
  {
    name: 'two files',
    detail: /more than one file named "file"/,
    send: () => multipartBody([file('a.json', '{"openapi":"3.0.0"}'), file('b.json', '{}')]),
  },
  {
    name: 'a field instead of a file',
    detail: /^Please select a/,
    curl: /^Please paste a curl command first/,
    send: () => one({ name: 'file', content: 'curl http://127.0.0.1:1/' }),
  },
  {
    name: 'a file over 25 MB',
    detail: /^The file is larger than 25 MB/,
    send: () => one(file('huge.yaml', HUGE)),
    statuses: [413],
  },
  {
    name: 'bytes that are not UTF-8',
    detail: /^bytes\.json: this is not /,
    curl: /no curl command was found/,
    send: () =>
      one(file('bytes.json', Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x90, 0xff]))),
  },
  {
    name: 'JSON that is a number',
    detail: /^n\.json: this is not .*: it holds a lone number \(42\)/,
    curl: /no curl command was found/,
    send: () => one(file('n.json', '42')),
  },
  {
    name: 'JSON that is null',
    detail: /^null\.json: this is not .*: it holds a lone null/,
    curl: /no curl command was found/,
    send: () => one(file('null.json', 'null')),
  },
  {
    name: 'JSON that is an array',
    detail: /^list\.json: this is a JSON array/,
    curl: /no curl command was found/,
    send: () => one(file('list.json', '[1, {"openapi": "3.0.0"}]')),
  },
  {
    name: 'a broken Excel file',
    detail: /^book\.xlsx: this is (not a readable Excel workbook|an Excel workbook, not )/,
    send: () => one(file('book.xlsx', Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(64, 7)]))),
  },
  {
    name: 'a broken old Excel file',
    detail: /^book\.xls: this is an Excel/,
    send: () =>
      one(file('book.xls', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0]), Buffer.alloc(64, 1)]))),
  },
  {
    name: 'a JSON body that is a number',
    detail: /^Please (select a|paste a curl)/,
    send: () => ({ payload: '42', headers: { 'content-type': 'application/json' } }),
  },
  {
    name: 'a JSON body that is null',
    detail: /^Please (select a|paste a curl)/,
    send: () => ({ payload: 'null', headers: { 'content-type': 'application/json' } }),
  },
  {
    name: 'a JSON body nested 100,000 deep',
    detail: /^Please (select a|paste a curl)/,
    send: () => ({
      payload: '['.repeat(100_000) + ']'.repeat(100_000),
      headers: { 'content-type': 'application/json' },
    }),
  },
];

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ token } = await registerAndLogin(server));
});

afterAll(async () => {
  await server.close();
  removeDir(server.dataDir);
});

describe.each(ROUTES)('POST %s', (route) => {
  it.each(CASES)(
    'answers $name with a 4xx that says what is wrong',
    async ({ send, statuses, detail, curl }) => {
      const { payload, headers } = send();
      const response = await server.app.inject({
        method: 'POST',
        url: route,
        payload,
        headers: { ...headers, authorization: `Bearer ${token}` },
      });
      const body = response.json<{ detail?: unknown; code?: unknown }>();
      const said = `${response.statusCode} ${JSON.stringify(body)}`;
      expect(statuses ?? [400], said).toContain(response.statusCode);
      expect(body.detail, said).toMatch(route === '/api/parse-curl' ? (curl ?? detail) : detail);
      expect(body.code, said).toMatch(/^[A-Z_]+$/);
    },
  );
});

it('stores no plan for any of them', async () => {
  const plans = await server.app.inject({
    method: 'GET',
    url: '/api/get-test-plans',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(plans.statusCode).toBe(200);
  expect(plans.headers['x-total-count']).toBe('0');
});
