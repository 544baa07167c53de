import { describe, expect, it } from 'vitest';
import { describeNetworkError } from './network-error';

const coded = (code: string, message = code, extra: object = {}) =>
  Object.assign(new Error(message), { code }, extra);

describe('describeNetworkError', () => {
  const url = new URL('https://api.example.test/v1');

  it.each([
    [coded('ECONNREFUSED'), 'Connection refused by api.example.test:443'],
    [coded('ENOTFOUND'), 'Host not found: api.example.test'],
    [coded('EAI_AGAIN'), 'Host not found: api.example.test (the DNS lookup failed; it may work later)'],
    [coded('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), 'TLS error: self-signed certificate'],
    [coded('CERT_HAS_EXPIRED', 'certificate has expired'), 'TLS error: certificate has expired'],
    [
      coded(
        'ERR_SSL_WRONG_VERSION_NUMBER',
        '80:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:x.c:350:',
      ),
      'TLS error: wrong version number',
    ],
    [coded('ECONNRESET'), 'Connection reset by api.example.test:443'],
    [
      coded('UND_ERR_SOCKET', 'other side closed'),
      'The connection to api.example.test:443 closed before the answer was complete',
    ],
    [new Error('something odd'), 'Request to api.example.test:443 failed: something odd'],
  ])('%s', (error, words) => {
    expect(describeNetworkError(error, url)).toBe(words);
  });

  it('finds the code down the cause chain and inside an AggregateError', () => {
    const wrapped = new Error('fetch failed', { cause: new AggregateError([coded('ECONNREFUSED')], '') });
    expect(describeNetworkError(wrapped, new URL('http://localhost:8080/'))).toBe(
      'Connection refused by localhost:8080',
    );
  });
});
