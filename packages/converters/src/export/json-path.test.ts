import { describe, expect, it } from 'vitest';
import { JsonPathError, normalizeJsonPath, parseJsonPath, segmentsAsData } from './json-path';
import { XPathSubsetError, xpathToElementTree } from './xpath-subset';

describe('parseJsonPath', () => {
  it('reads the supported subset', () => {
    expect(segmentsAsData(parseJsonPath("$.data[0]['first name'][*]..id[-1].*"))).toEqual([
      ['k', 'data'],
      ['i', 0],
      ['k', 'first name'],
      ['*'],
      ['..', 'id'],
      ['i', -1],
      ['*'],
    ]);
  });

  it('adds the missing $', () => {
    expect(normalizeJsonPath('data.id')).toBe('$.data.id');
    expect(normalizeJsonPath('[0]')).toBe('$[0]');
    expect(parseJsonPath('data.id')).toEqual([
      { kind: 'key', key: 'data' },
      { kind: 'key', key: 'id' },
    ]);
  });

  it('names what it cannot read', () => {
    expect(() => parseJsonPath('$.items[?(@.price > 10)]')).toThrow(JsonPathError);
    expect(() => parseJsonPath('$.items[0:2]')).toThrow(/at "\[0:2\]"/);
  });
});

describe('xpathToElementTree', () => {
  it('converts element paths, text() and attributes', () => {
    expect(xpathToElementTree('/result/ref')).toEqual({ path: './result/ref', select: 'string-value' });
    expect(xpathToElementTree('//item[2]/name/text()')).toEqual({ path: './/item[2]/name', select: 'text' });
    expect(xpathToElementTree("/a/b[@k='v']/@id")).toEqual({
      path: "./a/b[@k='v']",
      select: { attribute: 'id' },
    });
  });

  it('refuses functions, axes and namespaces', () => {
    for (const xpath of ['count(//a)', '/a/child::b', '/ns:a/b', '/a[contains(., "x")]', '']) {
      expect(() => xpathToElementTree(xpath)).toThrow(XPathSubsetError);
    }
  });
});
