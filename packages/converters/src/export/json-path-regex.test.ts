import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonPath, type JsonPathSegment } from './json-path';
import { JSON_REGEX_NESTING, JSON_REGEX_PREFIX_CHARS, jsonPathRegexes } from './json-path-regex';

/**
 * The expressions are checked in JavaScript, whose regular expressions read them as Jakarta ORO does
 * (plan-to-jmx.test.ts runs them in Debian's JMeter 2.13), against the engine's JSONPath semantics for
 * member and index paths: the value at the path, a string as it is, anything else as JSON text.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The engine's answer (packages/engine/src/call/json-path.ts): undefined when the path is absent. */
function engineValue(json: Json, segments: JsonPathSegment[]): string | undefined {
  let cur: unknown = json;
  for (const s of segments) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (s.kind === 'index') {
      if (!Array.isArray(cur)) return undefined;
      cur = (cur as unknown[])[s.index];
    } else if (s.kind === 'key') {
      if (Array.isArray(cur) || !Object.prototype.hasOwnProperty.call(cur, s.key)) return undefined;
      cur = (cur as Record<string, unknown>)[s.key];
    }
  }
  if (cur === undefined) return undefined;
  return typeof cur === 'string' ? cur : JSON.stringify(cur);
}

/** What the two extractors leave in the variable: the string form's group, else the other form's. */
function regexValue(body: string, segments: JsonPathSegment[]): string | undefined {
  const answer = jsonPathRegexes(segments);
  if (!answer.ok) throw new Error(answer.reason);
  const head = body.slice(0, JSON_REGEX_PREFIX_CHARS);
  const string = new RegExp(answer.regexes.string).exec(head)?.[1];
  const other = new RegExp(answer.regexes.other).exec(head)?.[1];
  if (string !== undefined && other !== undefined) throw new Error(`both forms matched ${body}`);
  return string ?? other;
}

const value = (expression: string, body: unknown) =>
  regexValue(JSON.stringify(body), parseJsonPath(expression));

describe('jsonPathRegexes', () => {
  it('finds member and index paths as the engine does', () => {
    const body = {
      user: { token: 'nested', id: 9 },
      token: 'abc.def',
      items: [{ owner: { id: 1 }, id: 5, tags: ['a', '{"not":"json"}'] }, { id: 'six' }],
      'a b': { 'c"d': true },
      empty: null,
    };
    expect(value('$.token', body)).toBe('abc.def');
    expect(value('$.user.id', body)).toBe('9');
    expect(value('$.items[0].id', body)).toBe('5');
    expect(value('$.items[1].id', body)).toBe('six');
    expect(value('$.items[0].tags[1]', body)).toBe('{\\"not\\":\\"json\\"}');
    expect(value("$['a b']['c\"d']", body)).toBe('true');
    expect(value('$.empty', body)).toBe('null');
    expect(value('$.items[0].owner', body)).toBe('{"id":1}');
    expect(value('$.missing', body)).toBeUndefined();
    expect(value('$.items[2].id', body)).toBeUndefined();
    expect(value('$.token.x', body)).toBeUndefined();
  });

  it('never takes a member of a nested value for one of the object it walks', () => {
    // The first "id" in the text belongs to owner; the engine's $.items[0].id is 5.
    expect(value('$.items[0].id', { items: [{ owner: { id: 1 }, id: 5 }] })).toBe('5');
    expect(value('$.id', { user: { id: 1 }, list: [{ id: 2 }], id: 3 })).toBe('3');
    expect(value('$.id', { note: '"id":4', id: 3 })).toBe('3');
    expect(value('$.id', { user: { id: 1 } })).toBeUndefined();
  });

  it('reads white space and a root array as JSON allows them', () => {
    const body = '[ 1 ,\n "two" , { "k" : [ true , { "v" : -2.5e3 } ] } ]';
    expect(regexValue(body, parseJsonPath('$[1]'))).toBe('two');
    expect(regexValue(body, parseJsonPath('$[2].k[1].v'))).toBe('-2.5e3');
    expect(regexValue(body, parseJsonPath('$[0]'))).toBe('1');
  });

  it('finds nothing past the nesting bound or past the prefix, as when the path is absent', () => {
    let deep: Json = 1;
    for (let i = 0; i < JSON_REGEX_NESTING; i++) deep = { d: deep };
    expect(value('$.id', { deep, id: 7 })).toBe('7');
    expect(value('$.id', { deep: { d: deep }, id: 7 })).toBeUndefined();
    expect(value('$.id', { pad: 'x'.repeat(JSON_REGEX_PREFIX_CHARS), id: 7 })).toBeUndefined();
  });

  it('names what it cannot write', () => {
    const reason = (expression: string) => {
      const answer = jsonPathRegexes(parseJsonPathOrUndefined(expression));
      return answer.ok ? 'ok' : answer.reason;
    };
    expect(reason('$.items[*].id')).toBe('it uses the wildcard *');
    expect(reason('$..id')).toBe('it uses the descendant step ..id');
    expect(reason('$.items[-1]')).toBe('it uses the negative index [-1]');
    expect(reason('$')).toBe('it selects the whole document ($)');
    expect(reason('$.items[?(@.x)]')).toBe('it uses syntax beyond members and indexes');
    expect(reason('$.items[0].id')).toBe('ok');
  });

  it('agrees with the engine on any JSON and any member or index path into it', () => {
    const key = fc.string({ maxLength: 6 }).filter((k) => k !== '__proto__');
    const leaf = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer({ min: -1e6, max: 1e6 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      // Escapes are captured as written (documented), so the strings compared here have none.
      fc.string({ maxLength: 12 }).filter((s) => JSON.stringify(s) === `"${s}"`),
    );
    const json: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(key, tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, fc.array(fc.nat({ max: 5 }), { minLength: 1, maxLength: 4 }), (doc, picks) => {
        // A path that walks into the document where it can, and past it where it cannot.
        const segments: JsonPathSegment[] = [];
        let cur: Json | undefined = doc;
        for (const pick of picks) {
          if (Array.isArray(cur)) {
            segments.push({ kind: 'index', index: pick });
            cur = cur[pick];
          } else if (cur !== null && typeof cur === 'object') {
            const keys = Object.keys(cur);
            const k = keys[pick % Math.max(1, keys.length)] ?? 'absent';
            segments.push({ kind: 'key', key: k });
            cur = cur[k];
          } else segments.push({ kind: 'key', key: 'absent' });
        }
        const body = JSON.stringify(doc);
        expect(regexValue(body, segments)).toBe(engineValue(doc, segments));
      }),
      { numRuns: 1000 },
    );
  });
});

function parseJsonPathOrUndefined(expression: string): JsonPathSegment[] | undefined {
  try {
    return parseJsonPath(expression);
  } catch {
    return undefined;
  }
}
