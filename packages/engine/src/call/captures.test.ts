import { CaptureSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { captureProblems, compileCapture, readCapture, type CompiledCapture } from './captures';

function capture(fields: Record<string, unknown>): CompiledCapture {
  return compileCapture(CaptureSchema.parse({ name: 'v', ...fields }), 0);
}

const response = {
  headers: { location: '/orders/7' },
  body: 'id=11;name=a id=22;name=b id=33;name=c',
};

describe('reading a capture', () => {
  it('a regex takes its first group of its first match unless told otherwise', () => {
    expect(readCapture(capture({ from: 'regex', expression: 'id=(\\d+);name=(\\w)' }), response)).toEqual({
      name: 'v',
      value: '11',
    });
    expect(
      readCapture(
        capture({ from: 'regex', expression: 'id=(\\d+);name=(\\w)', group: 2, match_no: 3 }),
        response,
      ),
    ).toEqual({ name: 'v', value: 'c' });
    expect(
      readCapture(capture({ from: 'regex', expression: 'id=(\\d+)', group: 0, match_no: 2 }), response).value,
    ).toBe('id=22');
  });

  it('a regex says which match or group is missing', () => {
    expect(readCapture(capture({ from: 'regex', expression: 'id=(\\d+)', match_no: 4 }), response)).toEqual({
      name: 'v',
      value: null,
      problem: '/id=(\\d+)/ matches the body 3 times, so there is no match 4',
    });
    expect(readCapture(capture({ from: 'regex', expression: 'id=(\\d+)', group: 2 }), response).problem).toBe(
      '/id=(\\d+)/ has no group 2',
    );
    expect(
      readCapture(capture({ from: 'regex', expression: 'x*' }), { headers: {}, body: 'abc' }).value,
    ).toBe('');
  });

  it('a default is taken when nothing is found, and the call does not fail for it', () => {
    const missing = readCapture(capture({ from: 'json_path', expression: '$.token', default: 'NOT_FOUND' }), {
      headers: {},
      body: '{"id":1}',
    });
    expect(missing).toEqual({
      name: 'v',
      value: 'NOT_FOUND',
      defaulted: true,
      problem: '$.token is not in the body',
    });
    const noHeader = readCapture(capture({ from: 'header', expression: 'ETag', default: '' }), response);
    expect(noHeader.value).toBe('');
    const noRegex = readCapture(
      capture({ from: 'regex', expression: 'id=(\\d+)', match_no: 9, default: '0' }),
      response,
    );
    expect(noRegex.value).toBe('0');
    expect(captureProblems([missing, noHeader, noRegex])).toBeNull();
    // Found, the default is not used.
    const found = readCapture(
      capture({ from: 'header', expression: 'Location', default: 'NOT_FOUND' }),
      response,
    );
    expect(found).toEqual({ name: 'v', value: '/orders/7' });
    // Without a default, nothing found fails the call in words.
    const bare = readCapture(capture({ from: 'json_path', expression: '$.token' }), {
      headers: {},
      body: '{}',
    });
    expect(captureProblems([bare])).toBe('Capture v found nothing: $.token is not in the body');
  });
});

describe('a json_path capture with a filter (issue #27)', () => {
  const json = { headers: {}, body: '{"orders":[{"id":7,"state":"open"},{"id":8,"state":"paid"}]}' };

  it('reads through a filter with a bare @ and blanks', () => {
    expect(
      readCapture(capture({ from: 'json_path', expression: "$.orders[?(@.state == 'paid')].id" }), json),
    ).toEqual({
      name: 'v',
      value: '8',
    });
  });

  it('finds nothing, in words, where its path cannot be read: the capture fails, not the run', () => {
    const bad = capture({ from: 'json_path', expression: '$.orders[?(@.state==]' });
    expect(readCapture(bad, json)).toEqual({
      name: 'v',
      value: null,
      problem:
        '$.orders[?(@.state==] cannot be read: $.orders[?(@.state==] does not close: ] at character 21 comes before its ( is closed',
    });
  });
});
