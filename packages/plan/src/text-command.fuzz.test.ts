import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PerfPlan, PerfPlanSchema } from './perf-plan';
import {
  applyTextCommand,
  parseTextCommand,
  TEXT_COMMAND_EXAMPLES,
  textCommandErrorMessage,
  textCommandMessage,
} from './text-command';

/**
 * Property-based fuzzing of the text-command parser (docs/design.md §11 "Bad input"): any command —
 * arbitrary text, word salads of the parser's own vocabulary, the examples cut and spliced — is read
 * within a time bound into updates or errors, never an exception, and whatever it accepts applies to a
 * plan the model still accepts (so a command cannot write a value out of the model's bounds).
 */

// The package is browser-safe and compiles without Node's types; AQA_FUZZ_RUNS raises the runs.
const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env;
const RUNS = Number(env?.AQA_FUZZ_RUNS) || 150;
const TIME_BOUND_MS = 2000;

fc.configureGlobal({ endOnFailure: true });

const plan: PerfPlan = PerfPlanSchema.parse({
  name: 'Shop',
  urls: [
    {
      name: 'Login',
      method: 'POST',
      url: 'https://shop.test/login',
      headers: [{ name: 'X-Env', value: 'dev' }],
    },
    { name: 'Catalog', url: 'https://shop.test/catalog' },
  ],
});

/** The words and signs the parser reads, with numbers of every shape, to build commands from. */
const WORDS = [
  ...new Set(TEXT_COMMAND_EXAMPLES.join(' ').split(/\s+/)),
  ...['users', 'duration', 'timeout', 'think', 'time', 'rate', 'transaction', 'remove', 'delete', 'header'],
  ...['bearer', 'token', 'method', 'GET', 'PATCH', 'k6', 'locust', 'taurus', 'minutes', 'hours', 'ms', '%'],
  ...[
    '모든',
    'API',
    '번',
    '그리고',
    '사용자',
    '시간',
    '분',
    '초',
    '를',
    '에',
    'and',
    ',',
    ';',
    ':',
    '#',
    'for',
  ],
  ...['-1', '0', '1e3', '0x10', '999999999', '.5', '2.5', 'NaN', 'Infinity', '1,000', '２'],
];

const command = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.array(fc.constantFrom(...WORDS), { maxLength: 25 }).map((words) => words.join(' ')),
  fc
    .tuple(
      fc.constantFrom(...TEXT_COMMAND_EXAMPLES),
      fc.nat(),
      fc.nat({ max: 10 }),
      fc.string({ maxLength: 10 }),
    )
    .map(([example, at, cut, insert]) => {
      const i = at % (example.length + 1);
      return example.slice(0, i) + insert + example.slice(i + cut);
    }),
  // Long commands: many clauses, and text around the length limit.
  fc.array(fc.constantFrom(...TEXT_COMMAND_EXAMPLES), { maxLength: 80 }).map((parts) => parts.join(' and ')),
  fc.nat({ max: 5000 }).map((n) => 'set users to 5 '.repeat(n)),
);

describe('parseTextCommand', () => {
  it('reads any command into updates or errors, within a time bound, and what it accepts fits the model', () => {
    fc.assert(
      fc.property(command, (text) => {
        const started = Date.now();
        const { updates, errors } = parseTextCommand(text, plan);
        expect(Array.isArray(updates) && Array.isArray(errors)).toBe(true);
        for (const error of errors) expect(typeof error === 'string' && error.trim() !== '').toBe(true);
        if (errors.length > 0) expect(textCommandErrorMessage(errors)).not.toBe('');
        else if (updates.length > 0) {
          expect(textCommandMessage(updates)).not.toBe('');
          PerfPlanSchema.parse(applyTextCommand(plan, updates));
        }
        expect(Date.now() - started).toBeLessThan(TIME_BOUND_MS);
      }),
      { numRuns: RUNS },
    );
  });
});
