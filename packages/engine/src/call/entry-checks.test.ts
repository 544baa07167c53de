import { perfAssertionRule, type FunctionalValidation, type UrlEntry } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { compileRuleCheck, EntryCheckError, type AssertionReading } from './entry-checks';
import { isHttpValidation, judge } from './judge';
import { ReusedResponseView } from './response-view';

/*
 * A performance plan entry's assertion as a rule of the one dialect (perfAssertionRule) judges exactly
 * as the entry's own assertion was judged before it became one (docs/call-core.md "A performance
 * plan's assertion"). The verdicts below were recorded from that earlier reading (entry-checks.ts
 * `compileAssertion`, replaced by `compileRuleCheck`) over every type × operator, a path that matches
 * nothing, JSON literals, and bodies that are not JSON or not XML; the rule must give them through the
 * load executor's check (`holds`, `read`) and through the core's judge alike.
 */

function answer(status: number, body: string): ReusedResponseView {
  const r = new ReusedResponseView();
  r.reset(status, Buffer.from(body));
  return r;
}

const ANSWERS: [number, string][] = [
  [200, '{"user":{"name":"alice","id":7,"tags":["a","b"],"nil":null,"ok":true},"n":10,"s":"10","e":""}'],
  [404, 'Not Found'],
  [200, '<root><user id="7"><name>alice</name></user><empty/></root>'],
  [201, ''],
  [200, '[1,2,3]'],
  [500, ' alice '],
];

type Spec = [UrlEntry['assertionType'], string, UrlEntry['assertionOperator'], string];
/**
 * [type, path, operator, expected, verdict on each answer (T holds, F not), and for json and xml what
 * was read on each: `t:` the text compared, `l:` the value beside a JSON literal (blank: nothing
 * found), not-json, not-xml]. A status or text assertion reads the status or the body.
 */
const RECORDED: [...Spec, string, string[]?][] = [
  ['status', '', 'equals', '200', 'TFTFTF'],
  ['status', '', 'equals', ' 200 ', 'TFTFTF'],
  ['status', '', 'not_equals', '200', 'FTFTFT'],
  ['status', '', 'equals', '2xx', 'FFFFFF'],
  ['status', '', 'contains', '0', 'TTTTTT'],
  ['status', '', 'regex', '^2\\d\\d$', 'TFTTTF'],
  ['text', '', 'equals', 'Not Found', 'FTFFFF'],
  ['text', '', 'equals', ' alice ', 'FFFFFT'],
  ['text', '', 'equals', 'alice', 'FFFFFF'],
  ['text', '', 'not_equals', 'Not Found', 'TFTTTT'],
  ['text', '', 'contains', 'alice', 'TFTFFT'],
  ['text', '', 'regex', '^<root>', 'FFTFFF'],
  ['text', '', 'regex', 'a.i', 'TFTFFT'],
  [
    'json',
    '$.user.name',
    'equals',
    'alice',
    'TFFFFF',
    ['t:alice', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    '$.user.name',
    'equals',
    '"alice"',
    'TFFFFF',
    ['l:"alice"', 'not-json', 'not-json', 'not-json', 'l:', 'not-json'],
  ],
  [
    'json',
    '$.user.name',
    'not_equals',
    'alice',
    'FFFFTF',
    ['t:alice', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    '$.user.name',
    'contains',
    'lic',
    'TFFFFF',
    ['t:alice', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    '$.user.name',
    'regex',
    '^al',
    'TFFFFF',
    ['t:alice', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    '$.user.id',
    'equals',
    '7',
    'TFFFFF',
    ['l:7', 'not-json', 'not-json', 'not-json', 'l:', 'not-json'],
  ],
  [
    'json',
    '$.user.id',
    'equals',
    '"7"',
    'FFFFFF',
    ['l:7', 'not-json', 'not-json', 'not-json', 'l:', 'not-json'],
  ],
  [
    'json',
    '$.user.id',
    'not_equals',
    '7',
    'FFFFTF',
    ['l:7', 'not-json', 'not-json', 'not-json', 'l:', 'not-json'],
  ],
  [
    'json',
    '$.user.id',
    'equals',
    '7 ',
    'TFFFFF',
    ['l:7', 'not-json', 'not-json', 'not-json', 'l:', 'not-json'],
  ],
  [
    'json',
    '$.missing',
    'equals',
    'x',
    'FFFFFF',
    ['t:', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    '$.missing',
    'not_equals',
    'x',
    'TFFFTF',
    ['t:', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    '$.missing',
    'not_equals',
    '"x"',
    'TFFFTF',
    ['l:', 'not-json', 'not-json', 'not-json', 'l:', 'not-json'],
  ],
  [
    'json',
    '$.missing',
    'regex',
    '^$',
    'TFFFTF',
    ['t:', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    '$.missing',
    'contains',
    'x',
    'FFFFFF',
    ['t:', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    '$.missing',
    'equals',
    'null',
    'FFFFFF',
    ['l:', 'not-json', 'not-json', 'not-json', 'l:', 'not-json'],
  ],
  [
    'json',
    '$.user.nil',
    'equals',
    'null',
    'TFFFFF',
    ['l:null', 'not-json', 'not-json', 'not-json', 'l:', 'not-json'],
  ],
  [
    'json',
    '$.user.nil',
    'equals',
    '"null"',
    'FFFFFF',
    ['l:null', 'not-json', 'not-json', 'not-json', 'l:', 'not-json'],
  ],
  [
    'json',
    '$.user.ok',
    'equals',
    'true',
    'TFFFFF',
    ['l:true', 'not-json', 'not-json', 'not-json', 'l:', 'not-json'],
  ],
  ['json', '$.n', 'equals', '10', 'TFFFFF', ['l:10', 'not-json', 'not-json', 'not-json', 'l:', 'not-json']],
  ['json', '$.n', 'equals', '10.0', 'TFFFFF', ['l:10', 'not-json', 'not-json', 'not-json', 'l:', 'not-json']],
  ['json', '$.n', 'equals', '"10"', 'FFFFFF', ['l:10', 'not-json', 'not-json', 'not-json', 'l:', 'not-json']],
  ['json', '$.s', 'equals', '10', 'FFFFFF', ['l:"10"', 'not-json', 'not-json', 'not-json', 'l:', 'not-json']],
  [
    'json',
    '$.s',
    'equals',
    '"10"',
    'TFFFFF',
    ['l:"10"', 'not-json', 'not-json', 'not-json', 'l:', 'not-json'],
  ],
  ['json', '$.s', 'contains', '1', 'TFFFFF', ['t:10', 'not-json', 'not-json', 'not-json', 't:', 'not-json']],
  [
    'json',
    '$.user.tags',
    'equals',
    '["a","b"]',
    'TFFFFF',
    ['t:["a","b"]', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    '$.user.tags',
    'contains',
    '"a"',
    'TFFFFF',
    ['t:["a","b"]', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    'user.name',
    'equals',
    'alice',
    'TFFFFF',
    ['t:alice', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    ' $.user.name ',
    'equals',
    'alice',
    'TFFFFF',
    ['t:alice', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    '$.user.tags[0]',
    'equals',
    'a',
    'TFFFFF',
    ['t:a', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    '$..name',
    'equals',
    'alice',
    'TFFFFF',
    ['t:alice', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    '$.user.tags[?(@ == "b")]',
    'equals',
    'b',
    'TFFFFF',
    ['t:b', 'not-json', 'not-json', 'not-json', 't:', 'not-json'],
  ],
  [
    'json',
    '$',
    'contains',
    'alice',
    'TFFFFF',
    [
      't:{"user":{"name":"alice","id":7,"tags":["a","b"],"nil":null,"ok":true},"n":10,"s":"10","e":""}',
      'not-json',
      'not-json',
      'not-json',
      't:[1,2,3]',
      'not-json',
    ],
  ],
  ['json', '$[1]', 'equals', '2', 'FFFFTF', ['l:', 'not-json', 'not-json', 'not-json', 'l:2', 'not-json']],
  ['json', '$.e', 'equals', '""', 'TFFFFF', ['l:""', 'not-json', 'not-json', 'not-json', 'l:', 'not-json']],
  ['json', '$.e', 'regex', '^$', 'TFFFTF', ['t:', 'not-json', 'not-json', 'not-json', 't:', 'not-json']],
  [
    'xml',
    '/root/user/name',
    'equals',
    'alice',
    'FFTFFF',
    ['not-xml', 'not-xml', 't:alice', 'not-xml', 'not-xml', 'not-xml'],
  ],
  [
    'xml',
    '/root/user/name',
    'not_equals',
    'alice',
    'FFFFFF',
    ['not-xml', 'not-xml', 't:alice', 'not-xml', 'not-xml', 'not-xml'],
  ],
  [
    'xml',
    '/root/user/name',
    'contains',
    'lic',
    'FFTFFF',
    ['not-xml', 'not-xml', 't:alice', 'not-xml', 'not-xml', 'not-xml'],
  ],
  [
    'xml',
    '/root/user/name',
    'regex',
    '^a',
    'FFTFFF',
    ['not-xml', 'not-xml', 't:alice', 'not-xml', 'not-xml', 'not-xml'],
  ],
  [
    'xml',
    '/root/missing',
    'equals',
    'x',
    'FFFFFF',
    ['not-xml', 'not-xml', 't:', 'not-xml', 'not-xml', 'not-xml'],
  ],
  [
    'xml',
    '/root/missing',
    'not_equals',
    'x',
    'FFTFFF',
    ['not-xml', 'not-xml', 't:', 'not-xml', 'not-xml', 'not-xml'],
  ],
  [
    'xml',
    '/root/missing',
    'regex',
    '^$',
    'FFTFFF',
    ['not-xml', 'not-xml', 't:', 'not-xml', 'not-xml', 'not-xml'],
  ],
  [
    'xml',
    '//user/@id',
    'equals',
    '7',
    'FFTFFF',
    ['not-xml', 'not-xml', 't:7', 'not-xml', 'not-xml', 'not-xml'],
  ],
  [
    'xml',
    'count(//user)',
    'equals',
    '1',
    'FFTFFF',
    ['not-xml', 'not-xml', 't:1', 'not-xml', 'not-xml', 'not-xml'],
  ],
  [
    'xml',
    'boolean(//user)',
    'equals',
    'true',
    'FFTFFF',
    ['not-xml', 'not-xml', 't:true', 'not-xml', 'not-xml', 'not-xml'],
  ],
  [
    'xml',
    ' /root/user/name ',
    'equals',
    'alice',
    'FFTFFF',
    ['not-xml', 'not-xml', 't:alice', 'not-xml', 'not-xml', 'not-xml'],
  ],
  [
    'xml',
    '/root/empty',
    'regex',
    '^$',
    'FFTFFF',
    ['not-xml', 'not-xml', 't:', 'not-xml', 'not-xml', 'not-xml'],
  ],
  [
    'xml',
    'string(/root/empty)',
    'not_equals',
    'x',
    'FFTFFF',
    ['not-xml', 'not-xml', 't:', 'not-xml', 'not-xml', 'not-xml'],
  ],
];

function ruleOf([type, path, operator, expected]: Spec): FunctionalValidation {
  const rule = perfAssertionRule({
    assertionType: type,
    assertionPath: path,
    assertionOperator: operator,
    assertionValue: expected,
  });
  if (rule === null) throw new Error('the entry asserts nothing');
  return rule;
}

function readingText(read: AssertionReading): string {
  switch (read.kind) {
    case 'text':
      return `t:${read.actual}`;
    case 'literal':
      return `l:${read.shown ?? ''}`;
    case 'failed':
      return `failed:${read.reason}`;
    default:
      return read.kind;
  }
}

describe('an entry assertion as a rule of the one dialect', () => {
  it.each(RECORDED)(
    '%s %j %s %j judges as recorded: %s',
    (type, path, operator, expected, verdicts, reads) => {
      const rule = ruleOf([type, path, operator, expected]);
      const check = compileRuleCheck(rule);
      if (!isHttpValidation(rule)) throw new Error(`${rule.type} is not judged on a response`);
      ANSWERS.forEach(([status, body], i) => {
        const holds = verdicts[i] === 'T';
        const where = `answer ${i}`;
        expect(check.holds(answer(status, body)), where).toBe(holds);
        const read = check.read(answer(status, body));
        expect('passed' in read ? read.passed : false, where).toBe(holds);
        const readWanted = reads?.[i] ?? `t:${type === 'status' ? String(status) : body}`;
        expect(readingText(read), where).toBe(readWanted);
        expect(judge(rule, answer(status, body)).passed, `${where}, the core's judge`).toBe(holds);
      });
    },
  );

  it('refuses an expression that cannot run, saying which', () => {
    const refused = (spec: Spec) => {
      try {
        compileRuleCheck(ruleOf(spec));
      } catch (error) {
        return error instanceof EntryCheckError ? error.kind : 'other';
      }
      return 'compiled';
    };
    expect(refused(['text', '', 'regex', '('])).toBe('regex');
    expect(refused(['xml', '//[', 'equals', 'x'])).toBe('xpath');
    expect(refused(['json', '$.items[?(@.name.match(/^(?=a)/))]', 'equals', 'x'])).toBe('json_path');
    expect(refused(['json', '$.a', 'equals', 'x'])).toBe('compiled');
  });
});
