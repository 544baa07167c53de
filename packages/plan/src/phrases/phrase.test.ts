import { describe, expect, it } from 'vitest';
import { englishText, innerPhrase, PhraseSchema, phraseText, rawPhrase, said } from './phrase';
import { PHRASES_EN } from './phrases.en';

/* The sentences the server makes as codes and parameters (docs/adr/0025-phrases.md). */

describe('phrases', () => {
  it('words a phrase with its values, a phrase inside it, and a count', () => {
    const refused = innerPhrase('net.refused', { where: '127.0.0.1:9' });
    const failed = said('judge.noResponse', {
      expectation: innerPhrase('expect.status', { expected: '200' }),
      failure: refused,
    });
    // The reason inside the rule starts lower-case in English ("…, but connection refused").
    expect(failed.text).toBe('expected status 200, but connection refused by 127.0.0.1:9');
    expect(
      said('judge.contains.failed', { subject: innerPhrase('subject.headers'), subjects: 2, expected: 'x' })
        .text,
    ).toBe('expected the headers to contain "x"; they do not');
    expect(said('message.calls', { count: 1, total: '1', passed: '1', failed: '0' }).text).toBe(
      '1 call: 1 passed, 0 failed',
    );
    expect(
      said('message.broke', {
        thresholds: [
          innerPhrase('message.brokeOne', { threshold: 'p95<300', actual: '412 ms' }),
          innerPhrase('message.brokeOne', { threshold: 'error_rate<1', actual: '3%' }),
        ],
      }).text,
    ).toBe('Broke p95<300 (was 412 ms), error_rate<1 (was 3%)');
  });

  it('gives nothing for a code (or a code inside) the dictionary lacks, so the stored English is shown', () => {
    expect(phraseText({ code: 'judge.from.a.newer.version', params: {} }, PHRASES_EN)).toBeUndefined();
    expect(
      phraseText(
        { code: 'judge.noResponse', params: { expectation: { code: 'nope', params: {} }, failure: 'x' } },
        PHRASES_EN,
      ),
    ).toBeUndefined();
    expect(phraseText({ code: 'toString', params: {} }, PHRASES_EN)).toBeUndefined();
    expect(englishText(rawPhrase('JMeter exited with 1'))).toBe('JMeter exited with 1');
  });

  it('is a wire shape of a code and its parameters, bounded', () => {
    const { phrase } = said('judge.status.failed', { expected: '201', actual: '500' });
    expect(PhraseSchema.parse(phrase)).toEqual({
      code: 'judge.status.failed',
      params: { expected: '201', actual: '500' },
    });
    expect(PhraseSchema.safeParse({ code: '', params: {} }).success).toBe(false);
    expect(PhraseSchema.safeParse({ code: 'raw', params: { text: 'x'.repeat(4001) } }).success).toBe(false);
  });
});
