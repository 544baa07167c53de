import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEST_EXIT_CANNOT_RUN, TEST_EXIT_PASSED, TEST_HELP } from './functional-test';
import { SERVER_ENV, TOKEN_ENV } from './remote-client';
import { recordingTestCommand } from './remote-recording';
import { remoteTestCommand } from './remote-test';

/*
 * The arguments of the two `aqa test` commands that run on a server (a saved plan with --plan, a browser
 * recording): one reading of the common options (--server, --token, the reports, --quiet, --help) beside
 * each command's own, and one way of saying a bad argument. Nothing here reaches a server: each case
 * ends before the first call, as the terminal would show it.
 */

let stdout = '';
let stderr = '';
beforeEach(() => {
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  vi.stubEnv(SERVER_ENV, '');
  vi.stubEnv(TOKEN_ENV, '');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const commands = {
  'aqa test --plan': (args: string[]) => remoteTestCommand(args),
  'aqa test recording.side': (args: string[]) =>
    recordingTestCommand(['login.side', ...args], 'selenium-ide'),
};

describe.each(Object.entries(commands))('%s', (_name, command) => {
  it('answers --help with the help of aqa test, exit 0', async () => {
    expect(await command(['--help'])).toBe(TEST_EXIT_PASSED);
    expect(stdout).toBe(TEST_HELP);
    expect(stderr).toBe('');
  });

  it('refuses an unknown option in words, pointing at --help, exit 2', async () => {
    expect(await command(['--users', '5'])).toBe(TEST_EXIT_CANNOT_RUN);
    expect(stderr).toMatch(/^aqa test: Unknown option '--users'.*\(aqa test --help lists the options\)\n$/);
    expect(stdout).toBe('');
  });

  it('refuses a report option without its file', async () => {
    expect(await command(['--junit'])).toBe(TEST_EXIT_CANNOT_RUN);
    expect(stderr).toMatch(/^aqa test: Option '--junit <value>' argument missing/);
  });
});

describe("each command's own options", () => {
  it("--plan is the saved plan command's, --base-url the recording's", async () => {
    expect(await remoteTestCommand(['--base-url', 'http://x'])).toBe(TEST_EXIT_CANNOT_RUN);
    expect(stderr).toMatch(/^aqa test: Unknown option '--base-url'/);
    stderr = '';
    expect(await recordingTestCommand(['login.side', '--plan', 'fp_1'], 'selenium-ide')).toBe(
      TEST_EXIT_CANNOT_RUN,
    );
    expect(stderr).toMatch(/^aqa test: Unknown option '--plan'/);
  });

  it('reads them, and the common ones, as far as the missing server', async () => {
    expect(await remoteTestCommand(['--plan', 'fp_1', '--token', 't', '--quiet'])).toBe(TEST_EXIT_CANNOT_RUN);
    expect(stderr).toBe(
      `aqa test: --plan runs a saved plan on a server: give --server URL or set ${SERVER_ENV} (e.g. https://aqa.example.com)\n`,
    );
    stderr = '';
    expect(
      await recordingTestCommand(
        ['login.side', '--base-url', 'http://x', '--json', 'r.json'],
        'selenium-ide',
      ),
    ).toBe(TEST_EXIT_CANNOT_RUN);
    expect(stderr).toContain(
      'aqa test: login.side is a Selenium IDE project, a UI test: it runs in a browser, which this command line does not have.',
    );
  });

  it('says what each needs: the plan id; the recording file, alone', async () => {
    expect(await remoteTestCommand(['--server', 'http://127.0.0.1:9'])).toBe(TEST_EXIT_CANNOT_RUN);
    expect(stderr).toBe('aqa test: --plan needs the id of a saved functional plan\n');
    stderr = '';
    expect(await remoteTestCommand(['plan.json', '--plan', 'fp_1'])).toBe(TEST_EXIT_CANNOT_RUN);
    expect(stderr).toBe('aqa test: give either a plan file or --plan ID, not both (plan.json)\n');
    stderr = '';
    expect(await recordingTestCommand(['--server', 'http://127.0.0.1:9'], 'selenium-ide')).toBe(
      TEST_EXIT_CANNOT_RUN,
    );
    expect(stderr).toBe('aqa test: aqa test needs the recording file\n');
    stderr = '';
    expect(await recordingTestCommand(['a.side', 'b.side'], 'selenium-ide')).toBe(TEST_EXIT_CANNOT_RUN);
    expect(stderr).toBe('aqa test: unexpected arguments: b.side\n');
  });
});
