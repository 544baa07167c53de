import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { jmeterEvaluate, jmeterReferences, soapUiExpand } from '../../../test/tool-semantics';
import { NASTY } from '../../../test/plans';
import type { Value } from '../script-model';
import { base64Utf8 } from './base64';
import { groovyString } from './groovy-literal';
import { jmeterQueryPieces, jmeterString, jmeterText, jmeterValue } from './jmeter-text';
import { jsLiteral, jsString } from './js-literal';
import { pyLiteral, pyString } from './python-literal';
import { captureGroupCount, escapeJsRegex, escapeOroRegex } from './regex-escape';
import { DOLLAR_PROPERTY, needsDollarProperty, soapUiText, soapUiValue } from './soapui-text';
import { el, escapeXmlAttr, renderXmlDocument } from './xml-writer';
import { xpathString } from './xpath-literal';

const SAMPLES = [
  NASTY.body,
  NASTY.header,
  NASTY.query,
  '',
  '$',
  '\\',
  '${',
  '$${',
  '\\${x}',
  '\ud800 lone',
  'a\u0001b',
];

describe('xml writer', () => {
  it('escapes < & > " \' in text and attributes, keeping line breaks and tabs in attributes', () => {
    const doc = renderXmlDocument(el('root', { a: 'x"y\'<&>\n\t\rz' }, [el('t', {}, NASTY.body)]));
    const parsed = new DOMParser().parseFromString(doc, 'text/xml');
    const root = parsed.documentElement;
    expect(root?.getAttribute('a')).toBe('x"y\'<&>\n\t\rz');
    expect(root?.getElementsByTagName('t')[0]?.textContent).toBe(NASTY.body);
    expect(escapeXmlAttr('<&>"\'')).toBe('&lt;&amp;&gt;&quot;&apos;');
  });

  it('writes characters XML cannot hold as U+FFFD', () => {
    const doc = renderXmlDocument(el('t', {}, 'a\u0001b\ud800c'));
    expect(doc).toContain('<t>a\uFFFDb\uFFFDc</t>');
  });
});

describe('JavaScript and Python literals', () => {
  it('round-trips every sample through JavaScript', () => {
    for (const text of SAMPLES.filter((t) => !/[\ud800-\udfff]/.test(t))) {
      expect(JSON.parse(jsString(text))).toBe(text);
      expect(runInNewContext(jsString(text))).toBe(text);
    }
    expect(jsString('\u2028\u2029')).toBe('"\\u2028\\u2029"');
    expect(jsLiteral({ a: ['x', 1] })).toBe('{"a":["x",1]}');
  });

  it('writes Python strings with no raw quote, backslash or line break', () => {
    expect(pyString('a"b\\c\nd\re\tf')).toBe('"a\\"b\\\\c\\nd\\re\\tf"');
    expect(pyString('"""')).toBe('"\\"\\"\\""');
    expect(pyString('\u0001\u0085\u2028é')).toBe('"\\x01\\x85\\u2028é"');
    expect(pyLiteral({ k: ['i', 0, true, null] })).toBe('{"k": ["i", 0, True, None]}');
    for (const text of SAMPLES) {
      const literal = pyString(text).slice(1, -1);
      expect(literal).not.toMatch(/(^|[^\\])(\\\\)*"/);
      expect(literal).not.toMatch(/[\n\r]/);
    }
  });

  it('writes Groovy strings single-quoted with every backslash doubled', () => {
    expect(groovyString(`it's a \\u000a $x\n`)).toBe("'it\\'s a \\\\u000a $x\\n'");
  });
});

describe('JMeter text', () => {
  it('leaves text without ${ as it is', () => {
    expect(jmeterText('a\\b $5 "q"')).toBe('a\\b $5 "q"');
  });

  it('makes JMeter read user text back exactly, with no function called', () => {
    for (const text of SAMPLES) {
      expect(jmeterEvaluate(jmeterText(text), jmeterReferences())).toBe(text);
    }
  });

  it('keeps variables and escapes the text around them', () => {
    const value: Value = [
      { kind: 'text', text: 'a\\${b}$' },
      { kind: 'var', name: 'token', ident: 'token', raw: '{{token}}' },
      { kind: 'seq', max: 5, ident: 'aqa_seq_5' },
    ];
    const written = jmeterValue(value);
    expect(written).toBe('a\\\\${__char(36)}{b}${__char(36)}${token}${aqa_seq_5}');
    expect(jmeterEvaluate(written, jmeterReferences({ token: 'T', aqa_seq_5: '3' }))).toBe('a\\${b}$T3');
  });

  it('percent-encodes query text now and URL-encodes variables at run time', () => {
    const pieces = jmeterQueryPieces([
      { name: 'q', value: [{ kind: 'text', text: 'a b&${x}' }] },
      { name: 'id', value: [{ kind: 'var', name: 'id', ident: 'id', raw: '{{id}}' }] },
    ]);
    const written = jmeterString(pieces);
    expect(written).toBe('q=a%20b%26%24%7Bx%7D&id=${__urlencode(${id})}');
    expect(jmeterEvaluate(written, jmeterReferences({ id: 'a b' }))).toBe('q=a%20b%26%24%7Bx%7D&id=a+b');
  });
});

describe('SoapUI text', () => {
  it('makes SoapUI expand user text back exactly, with no property or script read', () => {
    for (const text of SAMPLES) {
      expect(soapUiExpand(soapUiText(text), () => 'EXPANDED')).toBe(text);
    }
  });

  it('keeps a "$" before a variable without disabling the variable', () => {
    const value: Value = [
      { kind: 'text', text: 'cost $$' },
      { kind: 'var', name: 'price', ident: 'price', raw: '{{price}}' },
      { kind: 'text', text: '${x}' },
    ];
    const written = soapUiValue(value);
    expect(needsDollarProperty(value)).toBe(true);
    const properties: Record<string, string> = {
      '#TestCase#price': '42',
      [`#TestCase#${DOLLAR_PROPERTY}`]: '$',
    };
    expect(soapUiExpand(written, (name) => properties[name])).toBe('cost $$42${x}');
  });
});

describe('other serializers', () => {
  it('base64-encodes UTF-8', () => {
    expect(base64Utf8('alice:p@ss:word')).toBe(Buffer.from('alice:p@ss:word').toString('base64'));
    expect(base64Utf8('é日本😀')).toBe(Buffer.from('é日本😀').toString('base64'));
    expect(base64Utf8('')).toBe('');
  });

  it('escapes regex text for JavaScript and Perl-style engines', () => {
    const text = '.*+?^${}()|[]\\/-"<>#&\n';
    expect(new RegExp(`^${escapeJsRegex(text)}$`).test(text)).toBe(true);
    // JavaScript reads the Perl-style escapes the same way, so it can check them here.
    expect(new RegExp(`^${escapeOroRegex(text)}$`).test(text)).toBe(true);
    expect(captureGroupCount('a(b)(?:c)(d)')).toBe(2);
    expect(captureGroupCount('(?<!x)y')).toBe(0);
    expect(captureGroupCount('(unclosed')).toBeUndefined();
  });

  it('writes XPath string literals for any quotes', () => {
    expect(xpathString("it's")).toBe('"it\'s"');
    expect(xpathString('say "hi"')).toBe('\'say "hi"\'');
    expect(xpathString(`a'b"c`)).toBe(`concat('a', "'", 'b"c')`);
  });
});
