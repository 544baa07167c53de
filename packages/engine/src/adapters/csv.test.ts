import { describe, expect, it } from 'vitest';
import { CsvStream, parseCsvText } from './csv';
import { jmeterErrorKind } from './jtl';
import { k6ErrorKind } from './k6';
import { locustErrorKind } from './locust-output';

describe('CsvStream', () => {
  it('returns only complete records, whatever the chunks, with quotes, "" and newlines in fields', () => {
    const text = 'a,b,c\r\n1,"x, ""y""\nz",3\r\n4,,"6"\n';
    const whole = parseCsvText(text);
    expect(whole).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x, "y"\nz', '3'],
      ['4', '', '6'],
    ]);
    for (let size = 1; size < 8; size++) {
      const s = new CsvStream();
      const rows: string[][] = [];
      for (let i = 0; i < text.length; i += size) rows.push(...s.feed(text.slice(i, i + size)));
      rows.push(...s.end());
      expect(rows).toEqual(whole);
    }
  });

  it('keeps a last record without a newline until end()', () => {
    const s = new CsvStream();
    expect(s.feed('h\n1\n2')).toEqual([['h'], ['1']]);
    expect(s.end()).toEqual([['2']]);
  });
});

describe('error kinds', () => {
  it('of JMeter samples', () => {
    expect(jmeterErrorKind('500', 'Internal Server Error')).toBe('http_status');
    expect(jmeterErrorKind('200', 'OK')).toBe('assertion');
    expect(jmeterErrorKind('Non HTTP response code: java.net.ConnectException', 'Connection refused')).toBe(
      'connect',
    );
    expect(jmeterErrorKind('Non HTTP response code: java.net.SocketTimeoutException', 'Read timed out')).toBe(
      'timeout',
    );
    expect(jmeterErrorKind('Non HTTP response code: java.net.UnknownHostException', 'nohost')).toBe('dns');
    expect(jmeterErrorKind('Non HTTP response code: javax.net.ssl.SSLHandshakeException', 'x')).toBe('tls');
    expect(jmeterErrorKind('200', 'The operation lasted too long: It took 1,204 milliseconds')).toBe(
      'timeout',
    );
  });

  it('of Locust failures', () => {
    expect(locustErrorKind("HTTPError('500 Server Error: Internal Server Error for url: http://x/b')")).toBe(
      'http_status',
    );
    expect(locustErrorKind("CatchResponseError('Assertion failed: status equals 201; got 200')")).toBe(
      'assertion',
    );
    expect(
      locustErrorKind(
        "ConnectionError(MaxRetryError(\"HTTPConnectionPool(host='127.0.0.1', port=1): Max retries exceeded (Caused by NewConnectionError('[Errno 111] Connection refused'))\"))",
      ),
    ).toBe('connect');
    expect(
      locustErrorKind(
        'ReadTimeout(ReadTimeoutError("HTTPConnectionPool(host=\'127.0.0.1\', port=8): Read timed out. (read timeout=0.5)"))',
      ),
    ).toBe('timeout');
    expect(
      locustErrorKind(
        'ConnectionError(MaxRetryError("... (Caused by NameResolutionError(\'Failed to resolve nohost\'))"))',
      ),
    ).toBe('dns');
  });

  it('of k6 requests', () => {
    expect(k6ErrorKind(503, 0)).toBe('http_status');
    expect(k6ErrorKind(0, 1050)).toBe('timeout');
    expect(k6ErrorKind(0, 1101)).toBe('dns');
    expect(k6ErrorKind(0, 1212)).toBe('connect');
    expect(k6ErrorKind(0, 1310)).toBe('tls');
  });
});
