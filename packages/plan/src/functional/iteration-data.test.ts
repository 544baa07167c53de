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
  });

  it('reads a JSON array of objects, every value as text', () => {
    expect(json('[{"id": 3, "ok": true, "tags": ["x"], "none": null}]').rows).toEqual([
      { id: '3', ok: 'true', tags: '["x"]', none: '' },
    ]);
  });

  it('names the file and the row or line of what is wrong', () => {
    expect(csv('a,b\n1,2,3\n').problem).toMatch(
      /row 1 \(line 2\) has 3 field\(s\) where the header row has 2/,
    );
    expect(csv('a,b\n"1,2\n').problem).toMatch(/line 2 that is never closed/);
    expect(json('{"a": 1}').problem).toMatch(/must hold a JSON array of objects/);
    expect(json('[{"a": 1}, 2]').problem).toMatch(/row 2 is not a JSON object/);
    expect(json('[{"a": 1},').problem).toMatch(/is not JSON: /);
  });

  it('takes the format from the name: .json is JSON, else CSV', () => {
    expect(iterationDataFormatOf('Data.JSON')).toBe('json');
    expect(iterationDataFormatOf('data.csv')).toBe('csv');
    expect(iterationDataFormatOf('data.txt')).toBe('csv');
  });
});
