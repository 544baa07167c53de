import { describe, expect, it } from 'vitest';
import { compileAssertion, EntryCheckError, type AssertionSpec } from './entry-checks';
import { ReusedResponseView } from './response-view';

function answer(status: number, body: string): ReusedResponseView {
  const r = new ReusedResponseView();
  r.reset(status, Buffer.from(body));
  return r;
}

const BODY = JSON.stringify({ user: { name: 'alice', id: 7 } });

/** [spec, holds]: the verdict alone and the reading for a message agree (executor/checks.test.ts words them). */
const CASES: [AssertionSpec, boolean][] = [
  [{ type: 'json', path: '$.user.name', operator: 'equals', expected: 'alice' }, true],
  [{ type: 'json', path: '$.user.id', operator: 'equals', expected: '7' }, true],
  [{ type: 'json', path: '$.user.id', operator: 'equals', expected: '"7"' }, false],
  [{ type: 'json', path: '$.nope', operator: 'not_equals', expected: 'x' }, true],
  [{ type: 'json', path: '$.nope', operator: 'regex', expected: '^$' }, true],
  [{ type: 'status', path: '', operator: 'equals', expected: ' 200 ' }, true],
  [{ type: 'text', path: '', operator: 'contains', expected: 'alice' }, true],
  [{ type: 'xml', path: '/a', operator: 'equals', expected: 'x' }, false],
];

describe('an entry assertion', () => {
  it.each(CASES)('%j holds: %s, and reads the same', (spec, holds) => {
    const assertion = compileAssertion(spec);
    expect(assertion.holds(answer(200, BODY))).toBe(holds);
    const read = assertion.read(answer(200, BODY));
    expect('passed' in read ? read.passed : false).toBe(holds);
  });

  it('reads a literal as JSON, and says when the body is not JSON or not XML', () => {
    const literal = compileAssertion({
      type: 'json',
      path: '$.user.id',
      operator: 'equals',
      expected: '"7"',
    });
    expect(literal.read(answer(200, BODY))).toEqual({ kind: 'literal', passed: false, shown: '7' });
    expect(literal.read(answer(200, '<x/>'))).toEqual({ kind: 'not-json' });
    const xml = compileAssertion({ type: 'xml', path: '/a', operator: 'equals', expected: 'x' });
    expect(xml.read(answer(200, BODY))).toEqual({ kind: 'not-xml' });
  });

  it('refuses an expression that cannot run, saying which', () => {
    const refused = (spec: AssertionSpec) => {
      try {
        compileAssertion(spec);
      } catch (error) {
        return error instanceof EntryCheckError ? error.kind : 'other';
      }
      return 'compiled';
    };
    expect(refused({ type: 'text', path: '', operator: 'regex', expected: '(' })).toBe('regex');
    expect(refused({ type: 'xml', path: '//[', operator: 'equals', expected: 'x' })).toBe('xpath');
  });
});
