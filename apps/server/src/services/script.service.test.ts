import { describe, expect, it } from 'vitest';
import { isGeneratedScript } from './script.service';

describe('isGeneratedScript', () => {
  it('ignores line endings and trailing white space', () => {
    expect(isGeneratedScript('a  \r\nb\t\n\n', 'a\nb')).toBe(true);
    expect(isGeneratedScript('a\n b', 'a\nb')).toBe(false);
  });

  it('compares a script of a million tabs at once (docs/adr/0022-linear-time-patterns.md)', () => {
    // Trailing white space was once removed by a pattern that is quadratic in a run of tabs.
    const started = Date.now();
    expect(isGeneratedScript(`${'\t'.repeat(1_000_000)}x`, 'x')).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
