import { UrlEntrySchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { createEntry, isReplacedAuthorizationHeader } from '@/features/call-editor';
import { entryToModel } from './form-to-plan';
import { entryFromModel } from './plan-form';

// The call editor's Authorization row (call-editor/model/authorization-header.ts) in the performance plan.

const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

describe('an Authorization row in the plan that is sent', () => {
  const withRow = (value: string, type: 'none' | 'bearer' = 'none') => {
    const entry = createEntry();
    return {
      ...entry,
      url: 'https://api.test/me',
      headers: [{ id: 'h1', name: 'Authorization', value }],
      authorization: { ...entry.authorization, type, token: type === 'bearer' ? 'from-tab' : '' },
    };
  };

  it('is sent as written when the tab is empty (a scheme the tab cannot hold must still reach the API)', () => {
    const { input } = entryToModel(withRow('Digest username="ada"'));
    expect(input.headers).toEqual([{ name: 'Authorization', value: 'Digest username="ada"' }]);
  });

  it('is left out when the tab sets authorization, which replaces it', () => {
    const entry = withRow('Bearer typed', 'bearer');
    expect(isReplacedAuthorizationHeader(entry.headers[0]!, entry.authorization)).toBe(true);
    expect(entryToModel(entry).input.headers).toEqual([]);
  });

  it('is moved to the tab when a plan is loaded or imported with it', () => {
    const { input } = entryToModel(withRow(`Basic ${b64('ada:pw')}`));
    const loaded = entryFromModel(UrlEntrySchema.parse(input));
    expect(loaded.authorization).toMatchObject({ type: 'basic', username: 'ada', password: 'pw' });
    expect(loaded.headers.every((h) => h.name === '')).toBe(true);
  });
});
