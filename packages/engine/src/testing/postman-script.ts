import type {
  SandboxHost,
  SandboxResponse,
  SandboxVariables,
  ScriptRun,
} from '../functional/postman/sandbox-types';

/*
 * What the Postman sandbox's tests hand a script (sandbox.test.ts, warm-sandbox.test.ts): no variables,
 * a JSON answer, a host that refuses to send, and a test script's run over them.
 */

export const noVariables = (): SandboxVariables => ({
  globals: {},
  collection: {},
  environment: {},
  data: {},
  local: {},
});

export const jsonResponse = (
  code: number,
  body: unknown,
  status = code === 200 ? 'OK' : 'Not Found',
): SandboxResponse => {
  const text = JSON.stringify(body);
  return {
    code,
    status,
    headers: [
      { key: 'Content-Type', value: 'application/json; charset=utf-8' },
      { key: 'X-Trace', value: 'abc' },
    ],
    body: text,
    responseTime: 12,
    responseSize: text.length,
  };
};

/** A host for scripts that must not send anything: a call fails the test. */
export const noNetwork: SandboxHost = {
  sendRequest: (req) => Promise.reject(new Error(`unexpected pm.sendRequest to ${req.url}`)),
};

/** A test script's run: GET "Get user" answered 200 with user 7's JSON, unless `over` says otherwise. */
export function testRun(source: string, over: Partial<ScriptRun> = {}): ScriptRun {
  return {
    event: 'test',
    source,
    request: { name: 'Get user', method: 'GET', url: 'http://127.0.0.1:1/users/7?expand=1', headers: [] },
    response: jsonResponse(200, { id: 7, name: 'Ada', tags: ['a', 'b'], address: { city: 'Paris' } }),
    variables: noVariables(),
    iteration: 0,
    iterationCount: 1,
    ...over,
  };
}
