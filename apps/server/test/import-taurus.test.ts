import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin, removeDir, startTestServer, type TestServer } from './helpers';
import { multipartBody, type Part } from './multipart-body';

/**
 * POST /api/parse-taurus (docs/adr/0027-load-profiles.md "Importers"): a Taurus YAML becomes a
 * performance plan's calls and settings — its first execution's load profile and its data sources —
 * with the real Taurus examples the converters keep (packages/converters/test/taurus/README.md).
 */

const EXAMPLES = fileURLToPath(new URL('../../../packages/converters/test/taurus/', import.meta.url));
const part = (field: string, name: string): Part => ({
  name: field,
  filename: name,
  content: readFileSync(`${EXAMPLES}${name}`),
});

let server: TestServer;
let token: string;

async function upload(url: string, parts: Part[]) {
  const { payload, headers } = multipartBody(parts);
  return server.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
}

interface TaurusAnswer {
  steps: { url: string; method: string }[];
  info: { format: string; kind: string; requests: number };
  warnings: { location: string; message: string }[];
  settings: {
    concurrent_users: number;
    duration: number;
    load_profile?: { model: string; start: number; stages: unknown[]; max_users?: number };
    data_sources?: { path: string }[];
    data_files?: Record<string, string>;
    missing_files: string[];
  };
}

beforeAll(async () => {
  server = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '1000', REGISTER_RATE_LIMIT_PER_IP: '1000' });
  ({ token } = await registerAndLogin(server));
});

afterAll(async () => {
  await server.close();
  removeDir(server.dataDir);
});

describe('POST /api/parse-taurus', () => {
  it('answers the calls and the execution as a load profile (stepping.yml: throughput in 5 steps)', async () => {
    const response = await upload('/api/parse-taurus', [part('file', 'stepping.yml')]);
    expect(response.statusCode).toBe(200);
    const body = response.json<TaurusAnswer>();
    expect(body.info).toMatchObject({ format: 'taurus', kind: 'Taurus configuration', requests: 4 });
    expect(body.steps).toHaveLength(4);
    expect(body.settings).toMatchObject({ concurrent_users: 50, duration: 3, missing_files: [] });
    expect(body.settings.load_profile).toMatchObject({ model: 'arrival_rate', start: 1.25, max_users: 50 });
    expect(body.settings.load_profile?.stages).toHaveLength(10);
    expect(body.warnings.map((w) => w.location)).toContain('execution[0].throughput (line 5)');
  });

  it('takes the data sources with the files sent beside the script, names a missing one, and the plan is saved only with it', async () => {
    const response = await upload('/api/parse-taurus', [
      part('file', 'csv-usage.yml'),
      part('files', 'pages.csv'),
    ]);
    expect(response.statusCode).toBe(200);
    const body = response.json<TaurusAnswer>();
    expect(body.settings.data_sources?.map((d) => d.path)).toEqual(['pages.csv', 'logins.csv']);
    expect(Object.keys(body.settings.data_files ?? {})).toEqual(['pages.csv']);
    expect(body.settings.missing_files).toEqual(['logins.csv']);
    expect(body.warnings.map((w) => w.message)).toContain(
      "Attach logins.csv to the plan's test data before saving: the script reads rows from it, and the upload did not include it",
    );

    const { missing_files: _missing, ...settings } = body.settings;
    const plan = { name: 'From Taurus', tool: 'taurus', urls: body.steps, ...settings };
    const refused = await server.request({ method: 'POST', url: '/api/save-test-plan', token, body: plan });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Data source \\"logins.csv\\" names no file of the plan\'s data_files');

    const logins = readFileSync(`${EXAMPLES}logins.csv`, 'utf8');
    const saved = await server.request({
      method: 'POST',
      url: '/api/save-test-plan',
      token,
      body: { ...plan, data_files: { ...settings.data_files, 'logins.csv': logins } },
    });
    expect(saved.statusCode).toBe(201);
  });

  it('refuses a script with nothing to import, in words naming the file', async () => {
    const response = await upload('/api/parse-taurus', [part('file', 'gatling-req.yml')]);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ detail: string }>().detail).toMatch(
      /^gatling-req\.yml: this is a Taurus configuration, but nothing in this script can run as a performance plan: execution\[0\]\.executor/,
    );
  });

  it('a Taurus file sent to another import is refused naming what it is', async () => {
    const swagger = await upload('/api/parse-swagger', [part('file', 'dsl-blazedemo.yml')]);
    expect(swagger.statusCode).toBe(400);
    expect(swagger.json<{ detail: string }>().detail).toBe(
      'dsl-blazedemo.yml: this is a Taurus configuration, not an OpenAPI / Swagger document; choose the matching file type, or upload an OpenAPI / Swagger document',
    );
    const functional = await upload('/api/functional/parse-file', [part('file', 'dsl-blazedemo.yml')]);
    expect(functional.statusCode).toBe(400);
    expect(functional.json<{ detail: string }>().detail).toContain('paste it into the Taurus script editor');
  });
});
