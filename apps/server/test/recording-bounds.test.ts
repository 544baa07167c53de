import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestServer, registerAndLogin, startTestServer, type TestServer } from './helpers';
import { multipartBody } from './multipart-body';

/*
 * The bounds of an uploaded recording (docs/recorded-ui-tests.md "Bounds"): 1,000 commands in all its
 * tests and 5 MB. A 500-command Selenium IDE project imports; one of 1,001 commands (in two tests, each
 * under the 1,000 a test may hold) is refused saying how many it has and how many run; a project padded
 * past 5 MB is refused by its size.
 */

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ token } = await registerAndLogin(server));
});
afterAll(async () => {
  await closeTestServer(server);
});

/** A Selenium IDE project whose tests hold the given numbers of `echo` commands after an `open`. */
function project(commandsPerTest: number[], padding = ''): Buffer {
  const tests = commandsPerTest.map((n, t) => ({
    id: `t${t}`,
    name: `Test ${t + 1}`,
    commands: Array.from({ length: n }, (_, c) =>
      c === 0
        ? { id: `c${c}`, command: 'open', target: '/', value: '' }
        : { id: `c${c}`, command: 'echo', target: `command ${c + 1}`, value: '' },
    ),
  }));
  return Buffer.from(
    JSON.stringify({ id: 'p', name: 'Big', url: 'http://127.0.0.1:9', tests, suites: [] }) + padding,
  );
}

async function parse(file: Buffer) {
  const { payload, headers } = multipartBody([{ name: 'file', filename: 'big.side', content: file }]);
  return server.app.inject({
    method: 'POST',
    url: '/api/functional/parse-file',
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
}

describe('the bounds of an uploaded recording', () => {
  it('imports a 500-command project', async () => {
    const answer = await parse(project([250, 250]));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ format: 'selenium-ide', recording: { tests: 2, actions: 500 } });
  });

  it('refuses a 1,001-command project, saying how many it has and how many run', async () => {
    const answer = await parse(project([500, 501]));
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ detail: string }>().detail).toBe(
      'big.side: this Selenium IDE project has 1,001 commands in all its tests; a recording runs at most 1,000. Split it into several recordings',
    );
    // 1,000 in all is still imported.
    expect((await parse(project([500, 500]))).statusCode).toBe(200);
  });

  it('refuses a recording over 5 MB by its size', async () => {
    const answer = await parse(project([10], ' '.repeat(5 * 1024 * 1024)));
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ detail: string }>().detail).toBe(
      'big.side: this Selenium IDE project is 5,121 KB; a recording is at most 5,120 KB (5 MB). Split it into several recordings',
    );
  });
});
