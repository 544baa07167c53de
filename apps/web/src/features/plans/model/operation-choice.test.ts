import { describe, expect, it } from 'vitest';
import type { ImportedApi } from '../queries/import-api';
import { filterOperations, importOperations, NO_FILTER, operationFacets } from './operation-choice';

const entries = [
  { method: 'GET', url: 'https://api.test/v1/pets?limit=1', name: 'List pets' },
  { method: 'POST', url: 'https://api.test/v1/pets', name: 'Add a pet' },
  { method: 'DELETE', url: 'https://api.test/v1/store/order/{{orderId}}', name: 'Delete order' },
  { method: 'GET', url: 'https://api.test/health', name: 'Health' },
];
const apis: ImportedApi[] = [
  { name: 'List pets', method: 'GET', path: '/pets', tags: ['pets'], operationId: 'listPets' },
  { name: 'Add a pet', method: 'POST', path: '/pets', tags: ['pets', 'write'], operationId: 'addPet' },
  {
    name: 'Delete order',
    method: 'DELETE',
    path: '/store/order/{orderId}',
    tags: ['store', 'write'],
    operationId: 'deleteOrder',
  },
  { name: 'Health', method: 'GET', path: '/health', tags: [], operationId: '' },
];

describe("the import screen's choice of operations", () => {
  const operations = importOperations(entries, apis);

  it('lists tags and methods in the order first met', () => {
    expect(operationFacets(operations)).toEqual({
      tags: ['pets', 'write', 'store'],
      methods: ['GET', 'POST', 'DELETE'],
    });
  });

  it('finds by path, method, tag, operationId and name, every word, in any case', () => {
    const names = (query: string) =>
      filterOperations(operations, { ...NO_FILTER, query }).map((operation) => operation.name);
    expect(names('/store/order')).toEqual(['Delete order']);
    expect(names('delete')).toEqual(['Delete order']);
    expect(names('ADDPET')).toEqual(['Add a pet']);
    expect(names('write')).toEqual(['Add a pet', 'Delete order']);
    expect(names('get pets')).toEqual(['List pets']);
    expect(names('nothing-like-this')).toEqual([]);
    expect(names('  ')).toHaveLength(4);
  });

  it('filters by one tag and one method, with the search', () => {
    expect(filterOperations(operations, { ...NO_FILTER, tag: 'write' }).map((o) => o.index)).toEqual([1, 2]);
    expect(filterOperations(operations, { ...NO_FILTER, method: 'GET' }).map((o) => o.index)).toEqual([0, 3]);
    expect(
      filterOperations(operations, { query: 'order', tag: 'write', method: 'DELETE' }).map((o) => o.index),
    ).toEqual([2]);
    expect(filterOperations(operations, { query: '', tag: 'pets', method: 'DELETE' })).toEqual([]);
  });

  it("takes the URL's path when the server sent no APIs (an older answer, a table)", () => {
    expect(importOperations(entries, undefined).map((o) => [o.method, o.path, o.tags])).toEqual([
      ['GET', '/v1/pets', []],
      ['POST', '/v1/pets', []],
      ['DELETE', '/v1/store/order/{{orderId}}', []],
      ['GET', '/health', []],
    ]);
  });
});
