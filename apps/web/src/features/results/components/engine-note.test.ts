import { describe, expect, it } from 'vitest';
import { createTranslate } from '@/i18n';
import { engineNoteText } from './DetailedStatistics';

describe('engineNoteText', () => {
  const t = createTranslate('en');

  it('starts a note in the server words with a capital, as the banner it is shown in', () => {
    expect(engineNoteText('ran in JMeter 5.6.3', 'jmeter', 'jmeter', t)).toBe('Ran in JMeter 5.6.3');
    expect(
      engineNoteText(
        'ran with the built-in engine: this server does not run SoapUI',
        'built-in',
        'soapui',
        t,
      ),
    ).toBe('Ran with the built-in engine: this server does not run SoapUI');
  });

  it('words a known note in the active language', () => {
    expect(
      engineNoteText('ran with the built-in engine: k6 is not installed on this server', 'built-in', 'k6', t),
    ).toBe(t('results.stats.engineNoteBuiltIn', { tool: 'k6' }));
  });
});
