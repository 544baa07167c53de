import { describe, expect, it } from 'vitest';
import { iterationDataFormatOf, readIterationData } from './iteration-data';

// A data file driving iterations as Newman's -d (docs/adr/0029-postman-collections.md §3).
const csv = (text: string) => readIterationData({ name: 'rows.csv', format: 'csv', text });
const json = (text: string) => readIterationData({ name: 'rows.json', format: 'json', text });

describe('readIterationData', () => {
  it('reads a CSV with a header: one row per line, quotes and a BOM as Newman reads them', () => {
    expect(csv('\uFEFFuser,note\nada,"a, b"\nbob,"say ""hi"""\n').rows).toEqual([
      { user: 'ada', note: 'a, b' },
      { user: 'bob', note: 'say "hi"' },
    ]);
    // A short row leaves its last columns empty.
    expect(csv('a,b\n1\n').rows).toEqual([{ a: '1', b: '' }]);
  });

  it('reads a JSON array of objects, every value as text', () => {
    expect(json('[{"id": 3, "ok": true, "tags": ["x"], "none": null}]').rows).toEqual([
      { id: '3', ok: 'true', tags: '["x"]', none: '' },
    ]);
  });

  it('names the file and the line or item of what is wrong', () => {
    expect(csv('a,b\n1,2,3\n').problem).toBe(
      'Data file "rows.csv" line 2: 3 values where the header names 2 columns',
    );
    expect(csv('a,b\n"1,2\n').problem).toBe('Data file "rows.csv" line 2: a quoted field is not closed');
    expect(csv('').problem).toBe('Data file "rows.csv" has no header line naming its columns');
    expect(csv('a,b\n').problem).toBe('Data file "rows.csv" has no rows');
    expect(json('{"a": 1}').problem).toBe(
      'Data file "rows.json" must hold a JSON array of objects, one per iteration',
    );
    expect(json('[{"a": 1}, 2]').problem).toBe(
      'Data file "rows.json": item 2 is not an object of column values',
    );
    expect(json('[{"a": 1},').problem).toMatch(/^Data file "rows.json" is not valid JSON: /);
  });

  it('takes the format from the name: .json is JSON, else CSV', () => {
    expect(iterationDataFormatOf('Data.JSON')).toBe('json');
    expect(iterationDataFormatOf('data.csv')).toBe('csv');
    expect(iterationDataFormatOf('data.txt')).toBe('csv');
  });
});
