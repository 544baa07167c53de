import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

/*
 * The sandbox bundled the way build.mjs bundles the engine, run by a plain `node` in a folder with no
 * node_modules: QuickJS's WebAssembly and Chai's source are inside the bundle
 * (docs/adr/0028-postman-sandbox.md §1).
 */

const dir = mkdtempSync(join(tmpdir(), 'aqa-postman-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('runs a Postman script from a self-contained bundle', async () => {
  const build = (await import(new URL('../../../build.mjs', import.meta.url).href)) as {
    buildSelfContained: (entry: string, outfile: string) => Promise<string>;
  };
  await build.buildSelfContained(new URL('./index.ts', import.meta.url).pathname, join(dir, 'postman.mjs'));
  writeFileSync(
    join(dir, 'main.mjs'),
    `import { runPostmanScript } from './postman.mjs';
const out = await runPostmanScript({
  event: 'test',
  source: 'pm.test("status", () => pm.response.to.have.status(201)); pm.test("chai", () => pm.expect([1, 2]).to.have.lengthOf(3));',
  request: { name: 'r', method: 'GET', url: 'http://127.0.0.1:1/', headers: [] },
  response: { code: 200, status: 'OK', headers: [], body: '{}', responseTime: 1, responseSize: 2 },
  variables: { globals: {}, collection: {}, environment: {}, data: {}, local: {} },
  iteration: 0, iterationCount: 1,
}, { sendRequest: async () => ({ error: 'no network here' }) });
process.stdout.write(JSON.stringify(out.tests));
`,
  );
  const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'main.mjs')], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '' },
  });
  expect(JSON.parse(stdout)).toEqual([
    { name: 'status', passed: false, error: 'expected response to have status code 201 but got 200' },
    { name: 'chai', passed: false, error: 'expected [ 1, 2 ] to have a length of 3 but got 2' },
  ]);
}, 60_000);
