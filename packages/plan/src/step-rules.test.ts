import { describe, expect, it } from 'vitest';
import { hasAssertion, hasExtraction, inferContentType, textExtractionBoundaries } from './step-rules';

describe('step rules', () => {
  it('reads text extraction boundaries', () => {
    expect(textExtractionBoundaries('')).toEqual({ kind: 'whole-body' });
    expect(textExtractionBoundaries('token=*;')).toEqual({ kind: 'between', left: 'token=', right: ';' });
    expect(textExtractionBoundaries('id: ')).toEqual({ kind: 'rest-of-line', left: 'id: ' });
  });

  it('extracts only with a name, and a path where the type needs one', () => {
    expect(hasExtraction({ extractName: 'id', extractType: 'text', extractValue: '' })).toBe(true);
    expect(hasExtraction({ extractName: 'id', extractType: 'json', extractValue: ' ' })).toBe(false);
    expect(hasExtraction({ extractName: '', extractType: 'json', extractValue: '$.id' })).toBe(false);
  });

  it('asserts only with an expected value, and a path for json and xml', () => {
    expect(hasAssertion({ assertionType: 'status', assertionPath: '', assertionValue: '200' })).toBe(true);
    expect(hasAssertion({ assertionType: 'json', assertionPath: '', assertionValue: 'x' })).toBe(false);
    expect(hasAssertion({ assertionType: 'json', assertionPath: '$.a', assertionValue: '' })).toBe(false);
  });

  it('infers a content type from the payload', () => {
    expect(inferContentType(' {"a":1}')).toBe('application/json');
    expect(inferContentType('[1]')).toBe('application/json');
    expect(inferContentType('<a/>')).toBe('application/xml');
    expect(inferContentType('a=1')).toBeUndefined();
  });
});
