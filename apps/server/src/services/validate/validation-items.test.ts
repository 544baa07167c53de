import { describe, expect, it } from 'vitest';
import { splitJsonPathExpectation } from './validation-items';

describe('splitJsonPathExpectation', () => {
  it.each([
    ['$.user.id', { path: '$.user.id', value: '' }],
    ['$.user.name = Ada', { path: '$.user.name', operator: '=', value: 'Ada' }],
    ['$.user.name==Ada Lovelace', { path: '$.user.name', operator: '==', value: 'Ada Lovelace' }],
    ['$.user.name != "Grace"', { path: '$.user.name', operator: '!=', value: '"Grace"' }],
    // Operators inside filters, brackets and quotes belong to the path.
    ['$.items[?(@.id==2)].name == pen', { path: '$.items[?(@.id==2)].name', operator: '==', value: 'pen' }],
    ["$['a=b'] = 1", { path: "$['a=b']", operator: '=', value: '1' }],
    ['$.q == a=b', { path: '$.q', operator: '==', value: 'a=b' }],
  ])('%s', (expected, split) => {
    expect(splitJsonPathExpectation(expected)).toEqual(split);
  });
});
