import { describe, expect, it } from 'vitest';
import { sortPickedFiles } from './import-file';

// Files picked together on "Import APIs from file" (docs/adr/0029-postman-collections.md).
const file = (name: string, text: string) => new File([text], name);
const collection = file(
  'shop.json',
  '{"info": {"name": "Shop"}, "item": [], "variable": [{"key": "a", "values": 1}]}',
);
const environment = file('local.json', '{"name": "Local", "values": [{"key": "baseUrl", "value": "x"}]}');

describe('sortPickedFiles', () => {
  it('tells the collection, its environment and its data file apart, in any order', async () => {
    const csv = file('rows.csv', 'a\n1\n');
    expect(await sortPickedFiles([csv, environment, collection])).toEqual({
      file: collection,
      environment,
      data: csv,
    });
    const json = file('rows.json', '[{"a": 1}]');
    expect(await sortPickedFiles([collection, json])).toEqual({ file: collection, data: json });
  });

  it('reads one file alone as the file to import, even an environment-like one', async () => {
    expect(await sortPickedFiles([environment])).toEqual({ file: environment });
  });

  it('says what is wrong with two of a kind or no file to import', async () => {
    expect(await sortPickedFiles([collection, file('b.json', '{"item": []}')])).toEqual({
      problem: 'shop.json and b.json are both files to import: pick one of each',
    });
    expect(await sortPickedFiles([file('a.csv', 'a\n1\n')])).toEqual({
      problem: 'Pick the file to import (a collection or an API document) with its environment or data file',
    });
  });
});
