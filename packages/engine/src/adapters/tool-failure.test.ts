import { describe, expect, it } from 'vitest';
import { lastLinesOf, toolFailureMessage } from './tool-failure';

describe('toolFailureMessage', () => {
  it('names the cause when the output shows one it knows, before any request', () => {
    const output = 'Error in NonGUIDriver com.thoughtworks.xstream.security.ForbiddenClassException: x';
    expect(toolFailureMessage('jmeter', 'no_results', { exitCode: 0, recorded: 0, output })).toBe(
      'JMeter stopped with an error before sending any request: it could not load the test plan.',
    );
    expect(
      toolFailureMessage('k6', 'exited', {
        exitCode: 107,
        recorded: 0,
        output: 'SyntaxError: Unexpected token',
      }),
    ).toBe('k6 stopped with an error before sending any request: it could not load the script.');
  });

  it('says how far the tool got when it stopped later, or was killed', () => {
    expect(toolFailureMessage('locust', 'exited', { exitCode: 1, recorded: 42, output: 'ImportError' })).toBe(
      'Locust stopped with an error (exit code 1) after 42 requests.',
    );
    expect(
      toolFailureMessage('taurus', 'exited', { exitCode: null, signal: 'SIGKILL', recorded: 1, output: '' }),
    ).toBe('Taurus was stopped by SIGKILL after 1 request.');
    expect(toolFailureMessage('k6', 'no_results', { exitCode: 0, recorded: 0, output: 'done' })).toBe(
      'k6 ended without sending any request.',
    );
  });
});

describe('lastLinesOf', () => {
  it('keeps the last non-blank lines', () => {
    expect(lastLinesOf('a\n\nb\r\nc\n', 2)).toBe('b\nc');
  });
});
