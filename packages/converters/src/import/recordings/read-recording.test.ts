import { describe, expect, it } from 'vitest';
import { recordingFixture } from '../../../test/fixtures';
import { readRecording } from './read-recording';

/* One entry for both recorders (docs/adr/0030-recorded-ui-tests.md §3): told by content, or named. */

describe('readRecording', () => {
  it('tells each recorder by its content, and leaves other files to the other importers', () => {
    expect(readRecording(recordingFixture('selenium-ide/sides/check-examples.side'))?.format).toBe(
      'selenium-ide',
    );
    expect(
      readRecording(recordingFixture('chrome-recorder/recordings/01-should-navigate-to-the-right-URL.json'))
        ?.format,
    ).toBe('chrome-recorder');
    expect(readRecording({ name: 'api.json', text: '{"openapi":"3.0.0","paths":{}}' })).toBeUndefined();
    expect(readRecording({ name: 'notes.txt', text: 'not: [json' })).toBeUndefined();
  });

  it('refuses a file that is not the recording its format names, saying what it is', () => {
    expect(() =>
      readRecording(recordingFixture('selenium-ide/sides/check-examples.side'), {
        format: 'chrome-recorder',
      }),
    ).toThrow(
      'check-examples.side: this is not a Chrome DevTools Recorder recording: it is a Selenium IDE one',
    );
    expect(() =>
      readRecording({ name: 'x.json', text: '{"openapi":"3.0.0"}' }, { format: 'selenium-ide' }),
    ).toThrow('x.json: this is not a Selenium IDE project');
  });
});
