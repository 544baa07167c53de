import { FunctionalPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { readScript, SCRIPT_MESSAGES, ScriptNotRunnable, scriptRunPlan } from './script-plan';

/*
 * The script reading the server and `aqa test` share (docs/reference/02-running.md §7 "Script calls"):
 * a request the model refuses is skipped with a warning, a script with nothing runnable or a data source
 * without its file is refused with every reason.
 */

const SCRIPT = `execution:
- iterations: 4
  concurrency: 2
  scenario: s
scenarios:
  s:
    data-sources:
    - path: rows.csv
    requests:
    - url: http://127.0.0.1:1/a?u=\${u}
      assert:
      - contains: [ok]
    - url: ftp://example.test/file
`;

function refusal(run: () => unknown): ScriptNotRunnable {
  try {
    run();
  } catch (e) {
    if (e instanceof ScriptNotRunnable) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('script plan', () => {
  it("reads the script's calls and execution, keeping the reader's warning for a request it skips", () => {
    const read = readScript(SCRIPT, { 'rows.csv': 'u\n1\n' });
    expect(read.apis.map((a) => [a.url, a.validations.length, a.source.path])).toEqual([
      ['http://127.0.0.1:1/a?u={{u}}', 1, 'scenarios.s.requests[0]'],
    ]);
    expect(read.execution).toMatchObject({ test_name: 's', iterations: 4, concurrent_users: 2 });
    expect(read.warnings).toEqual([
      {
        path: 'scenarios.s.requests[1].url',
        line: 13,
        message: 'ftp://example.test/file is not an http:// or https:// URL; this request is skipped',
        effect: 'skipped',
      },
    ]);
  });

  it('refuses a data source without its file, and a script with nothing runnable, naming each reason', () => {
    const plan = FunctionalPlanSchema.parse({
      test_name: 'T',
      source: 'script_input',
      script_content: SCRIPT,
      iterations: 1,
    });
    const missing = refusal(() => scriptRunPlan(plan));
    expect(missing.message).toBe(SCRIPT_MESSAGES.missingFile('rows.csv'));
    expect(missing.warnings).toEqual([
      { path: 'scenarios.s.data-sources[0]', line: 8, message: missing.message, effect: 'refused' },
    ]);

    const ran = scriptRunPlan({ ...plan, data_files: { 'rows.csv': 'u\n1\n' } });
    expect(ran.plan.apis.map((a) => a.url)).toEqual(['http://127.0.0.1:1/a?u={{u}}']);
    expect(ran.plan.iterations).toBe(1);

    const nothing = refusal(() =>
      readScript('execution:\n- scenario: s\nscenarios:\n  s:\n    requests:\n    - url: ftp://x.test/\n'),
    );
    expect(nothing.message).toBe(
      'Nothing in this script can run as a functional test: scenarios.s.requests[0].url (line 6): ftp://x.test/ is not an http:// or https:// URL; this request is skipped',
    );
    expect(nothing.warnings.map((w) => [w.path, w.line, w.effect])).toEqual([
      ['scenarios.s.requests[0].url', 6, 'refused'],
    ]);
  });
});
