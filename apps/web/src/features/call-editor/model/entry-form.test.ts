import { describe, expect, it } from 'vitest';
import { createEntry, duplicateName, duplicateUrl, entryFormReducer, nextValidationName } from './entry-form';

// The rules of one call in the editor; the list rules of each plan form are tested with that form
// (plans/model/plan-form.test.ts, functional/editor/model/functional-form.test.ts).

describe('a call in the editor', () => {
  it('adds a validation item only with a non-blank expected value, auto-named "Validation N"', () => {
    const entry = createEntry({ url: 'a' });
    const entryId = entry.id;
    const blank = entryFormReducer(entry, {
      type: 'addValidation',
      entryId,
      id: 'v0',
      item: { type: 'status_code', expected_value: '   ', description: '' },
    });
    expect(blank).toBe(entry);
    let next = entryFormReducer(entry, {
      type: 'addValidation',
      entryId,
      id: 'v1',
      item: { type: 'status_code', expected_value: ' 200 ', description: ' ok ' },
    });
    next = entryFormReducer(next, {
      type: 'addValidation',
      entryId,
      id: 'v2',
      item: { type: 'json_path', expected_value: '$.id', description: '' },
    });
    expect(next.validations).toEqual([
      { id: 'v1', name: 'Validation 1', type: 'status_code', expected_value: '200', description: 'ok' },
      { id: 'v2', name: 'Validation 2', type: 'json_path', expected_value: '$.id', description: '' },
    ]);
    const removed = entryFormReducer(next, { type: 'removeValidation', entryId, itemId: 'v1' });
    expect(nextValidationName(removed.validations)).toBe('Validation 3');
  });
});

describe('the copy of a call', () => {
  it('names the copy of an unnamed API by its method and URL', () => {
    expect(duplicateName({ name: ' ', method: 'POST', url: 'https://a.test/x' })).toBe(
      'POST https://a.test/x_copy',
    );
  });

  it('leaves a blank URL blank on the copy', () => {
    expect(duplicateUrl('')).toBe('');
    expect(duplicateUrl('https://a.test/x?page=1')).toBe('https://a.test/x?page=1_copy');
  });
});
