import { describe, expect, it } from 'vitest';
import { collectionFilesAlone, readCollectionFiles, sortPickedFiles } from './import-file';

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

describe('collectionFilesAlone and readCollectionFiles', () => {
  it('take an environment and a data file picked after their collection, as the importer reads them', async () => {
    const csv = file('orders.csv', 'item,quantity\nnotebook,2\npen,0\n');
    const alone = await collectionFilesAlone([csv, environment]);
    expect(alone).toEqual({ environment, data: csv });
    const read = await readCollectionFiles(alone!);
    expect(read.iterations).toBe(2);
    expect(read.collection.environmentName).toBe('Local');
    expect(read.collection.environment.map((v) => [v.name, v.value])).toEqual([['baseUrl', 'x']]);
    expect(read.collection.iterationData).toEqual({
      name: 'orders.csv',
      format: 'csv',
      text: await csv.text(),
    });
    // A globals file goes to the globals.
    const globals = file(
      'g.json',
      '{"name": "G", "values": [{"key": "k", "value": "v"}], "_postman_variable_scope": "globals"}',
    );
    const fromGlobals = await readCollectionFiles({ environment: globals });
    expect(fromGlobals.collection.environmentName).toBeNull();
    expect(fromGlobals.collection.globals.map((v) => v.name)).toEqual(['k']);
  });

  it('leave a collection, or two files of a kind, to the import; a wrong file is refused by name', async () => {
    expect(await collectionFilesAlone([collection, environment])).toBeNull();
    expect(await collectionFilesAlone([file('a.csv', 'a\n1\n'), file('b.csv', 'b\n2\n')])).toBeNull();
    await expect(readCollectionFiles({ data: file('bad.csv', 'a,b\n1\n') })).rejects.toThrow(/^bad\.csv: /);
  });
});
