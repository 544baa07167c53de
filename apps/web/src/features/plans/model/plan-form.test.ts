import { migratePlan } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import {
  createPlanForm,
  formFromPlan,
  planFormReducer,
  withImportedSettings,
  type PlanForm,
} from './plan-form';
import { presetProfileForm } from './profile-form';
import { canMoveDown, canMoveUp, createEntry, emptyRow } from '@/features/call-editor';

function formWith(urls: string[]): PlanForm {
  return { ...createPlanForm(), entries: urls.map((url) => createEntry({ url })) };
}

const urlsOf = (form: PlanForm) => form.entries.map((entry) => entry.url);

describe('the URL list rules', () => {
  it('starts with one empty GET entry on the Parameters tab, JMeter, 10 users, 1 minute', () => {
    const form = createPlanForm();
    expect(form.entries).toHaveLength(1);
    expect(form.entries[0]).toMatchObject({ method: 'GET', url: '', tab: 'parameters' });
    expect(form.entries[0]?.parameters).toHaveLength(1);
    expect(form.entries[0]?.headers).toHaveLength(1);
    expect(form).toMatchObject({ tool: 'jmeter', concurrentUsers: '10', duration: '1' });
  });

  it('adds entries at the end', () => {
    const form = planFormReducer(formWith(['a']), { type: 'addEntry', entry: createEntry({ url: 'b' }) });
    expect(urlsOf(form)).toEqual(['a', 'b']);
  });

  it('moves entries up and down, and refuses moves past either end', () => {
    const form = formWith(['a', 'b', 'c']);
    expect(urlsOf(planFormReducer(form, { type: 'moveEntry', from: 2, to: 1 }))).toEqual(['a', 'c', 'b']);
    expect(urlsOf(planFormReducer(form, { type: 'moveEntry', from: 0, to: 1 }))).toEqual(['b', 'a', 'c']);
    expect(urlsOf(planFormReducer(form, { type: 'moveEntry', from: 2, to: 0 }))).toEqual(['c', 'a', 'b']);
    expect(planFormReducer(form, { type: 'moveEntry', from: 0, to: -1 })).toBe(form);
    expect(planFormReducer(form, { type: 'moveEntry', from: 2, to: 3 })).toBe(form);
    expect([canMoveUp(0), canMoveUp(1)]).toEqual([false, true]);
    expect([canMoveDown(1, 3), canMoveDown(2, 3)]).toEqual([true, false]);
  });

  it('deletes an entry only while more than one remains', () => {
    const two = formWith(['a', 'b']);
    const one = planFormReducer(two, { type: 'removeEntry', entryId: two.entries[0]?.id ?? '' });
    expect(urlsOf(one)).toEqual(['b']);
    expect(planFormReducer(one, { type: 'removeEntry', entryId: one.entries[0]?.id ?? '' })).toBe(one);
  });

  it('keeps one parameter and one header row', () => {
    const form = formWith(['a']);
    const entry = form.entries[0];
    if (!entry) throw new Error('no entry');
    const rowId = entry.headers[0]?.id ?? '';
    expect(planFormReducer(form, { type: 'removeRow', entryId: entry.id, list: 'headers', rowId })).toBe(
      form,
    );

    const added = planFormReducer(form, {
      type: 'addRow',
      entryId: entry.id,
      list: 'parameters',
      row: emptyRow(),
    });
    const rows = added.entries[0]?.parameters ?? [];
    expect(rows).toHaveLength(2);
    const removed = planFormReducer(added, {
      type: 'removeRow',
      entryId: entry.id,
      list: 'parameters',
      rowId: rows[0]?.id ?? '',
    });
    expect(removed.entries[0]?.parameters).toEqual([rows[1]]);
  });

  it('switches the editor to the Payload tab when POST, PUT or PATCH is chosen', () => {
    const form = formWith(['a']);
    const id = form.entries[0]?.id ?? '';
    const onHeaders = planFormReducer(form, { type: 'setTab', entryId: id, tab: 'headers' });
    for (const method of ['POST', 'PUT', 'PATCH'] as const) {
      const next = planFormReducer(onHeaders, { type: 'setMethod', entryId: id, method });
      expect(next.entries[0]).toMatchObject({ method, tab: 'payload' });
    }
    for (const method of ['GET', 'DELETE'] as const) {
      expect(planFormReducer(onHeaders, { type: 'setMethod', entryId: id, method }).entries[0]?.tab).toBe(
        'headers',
      );
    }
  });
});

describe('a saved plan in the form', () => {
  it('splits OAuth2 credentials and moves an Authorization header to the Authorization tab', () => {
    const plan = migratePlan({
      name: 'Loaded',
      urls: [
        {
          method: 'POST',
          url: 'https://api.test/a',
          headers: [
            { name: 'Authorization', value: 'Bearer abc.def' },
            { name: 'X-Trace', value: '1' },
          ],
        },
        {
          url: 'https://api.test/b',
          authorization: { type: 'oauth2', token: 'client-1:s3cr:et', tokenUrl: 'https://auth.test/token' },
        },
      ],
    });
    const form = formFromPlan(plan);
    const [first, second] = form.entries;
    expect(first?.authorization).toMatchObject({ type: 'bearer', token: 'abc.def' });
    expect(first?.headers.map((h) => [h.name, h.value])).toEqual([['X-Trace', '1']]);
    expect(first?.tab).toBe('payload');
    expect(second?.authorization).toMatchObject({
      type: 'oauth2',
      clientId: 'client-1',
      clientSecret: 's3cr:et',
      tokenUrl: 'https://auth.test/token',
    });
    expect(second?.parameters).toHaveLength(1);
  });
});

describe('duplicating an API (script-upload screen)', () => {
  it('puts a copy with "_copy" on its URL and name right after the original, with ids of its own', () => {
    const original = createEntry({
      name: 'List pets',
      url: 'https://a.test/pets',
      headers: [{ id: 'row-h', name: 'Accept', value: 'application/json' }],
    });
    const form = {
      ...createPlanForm('script-input'),
      entries: [original, createEntry({ url: 'https://a.test/b' })],
    };
    const next = planFormReducer(form, { type: 'duplicateEntry', entryId: original.id });
    expect(next.entries.map((entry) => entry.name)).toEqual(['List pets', 'List pets_copy', '']);
    const copy = next.entries[1];
    expect(copy?.url).toBe('https://a.test/pets_copy');
    expect(next.entries[0]?.url).toBe('https://a.test/pets');
    expect(copy?.id).not.toBe(original.id);
    expect(copy?.headers[0]).toMatchObject({ name: 'Accept', value: 'application/json' });
    expect(copy?.headers[0]?.id).not.toBe('row-h');
    expect(planFormReducer(form, { type: 'duplicateEntry', entryId: 'nope' })).toBe(form);
  });
});

describe('withImportedSettings (a Taurus configuration: docs/adr/0027-load-profiles.md "Importers")', () => {
  it("puts the file's users, minutes, load profile and data into the form", () => {
    const form = withImportedSettings(createPlanForm('script-input'), {
      concurrent_users: 25,
      duration: 3,
      load_profile: {
        model: 'users',
        start: 0,
        graceful_stop: '10s',
        stages: [
          { duration: '1m', target: 25 },
          { duration: '2m', target: 25 },
        ],
      },
      data_sources: [{ path: 'logins.csv', loop: true, random_order: false, share: 'all' }],
      data_files: { 'logins.csv': 'user\nada' },
    });
    expect(form.concurrentUsers).toBe('25');
    expect(form.duration).toBe('3');
    expect(form.loadProfile?.stages.map((s) => [s.duration, s.target])).toEqual([
      ['1m', '25'],
      ['2m', '25'],
    ]);
    expect(form.dataSources?.map((s) => s.path)).toEqual(['logins.csv']);
    expect(form.dataFiles).toEqual({ 'logins.csv': 'user\nada' });
  });

  it('a flat load clears a profile the form had, and a file without data keeps the test data', () => {
    const before = {
      ...createPlanForm('script-input'),
      loadProfile: presetProfileForm('stress', 10, 60_000),
      dataFiles: { 'a.csv': 'x\n1' },
      dataSources: [{ path: 'a.csv', loop: true, random_order: false, share: 'all' as const }],
    };
    const form = withImportedSettings(before, { concurrent_users: 5, duration: 1 });
    expect(form.loadProfile).toBeNull();
    expect(form.concurrentUsers).toBe('5');
    expect(form.dataFiles).toEqual({ 'a.csv': 'x\n1' });
  });
});
