import { describe, expect, it } from 'vitest';
import { addFieldError, checkPlan, checkScriptRequest, snapshotForm, type FormErrors } from './form-to-plan';
import { createPlanForm, type PlanForm } from './plan-form';
import { createEntry, emptyAuth } from '@/features/call-editor';

function form(overrides: Partial<PlanForm>): PlanForm {
  return { ...createPlanForm(), name: 'Plan', ...overrides };
}

describe('the form as a plan', () => {
  it('leaves out entries without a URL, blank rows and Authorization headers, and joins OAuth2 credentials', () => {
    const entry = createEntry({
      method: 'POST',
      url: 'https://api.test/orders',
      headers: [
        { id: 'h1', name: 'Authorization', value: 'Bearer x' },
        { id: 'h2', name: 'X-Trace', value: '7' },
        { id: 'h3', name: '', value: '' },
      ],
      parameters: [{ id: 'p1', name: '', value: '' }],
      authorization: { ...emptyAuth(), type: 'oauth2', clientId: ' app ', clientSecret: 'secret' },
    });
    const { body, hasUrl } = snapshotForm(form({ entries: [createEntry(), entry] }));
    expect(hasUrl).toBe(true);
    expect(body.urls).toHaveLength(1);
    expect(body.urls[0]).toMatchObject({
      method: 'POST',
      headers: [{ name: 'X-Trace', value: '7' }],
      parameters: [],
      authorization: { type: 'oauth2', token: 'app:secret' },
    });
  });

  it('uses the defaults for blank users and duration', () => {
    const result = checkPlan(
      form({ concurrentUsers: '', duration: ' ', entries: [createEntry({ url: 'https://a.test' })] }),
    );
    expect(result.ok && [result.plan.concurrent_users, result.plan.duration]).toEqual([10, 1]);
  });

  it('puts each problem next to its field: plan settings, entries and rows', () => {
    const entry = createEntry({
      url: 'not a url',
      headers: [{ id: 'row-a', name: 'Bad Header', value: 'x' }],
      extractName: '1abc',
    });
    const result = checkPlan(form({ name: ' ', concurrentUsers: '5000', entries: [createEntry(), entry] }));
    expect(result.ok).toBe(false);
    expect(result.errors.plan).toMatchObject({
      name: 'Please enter a plan name',
      concurrent_users: 'Concurrent users must be a whole number from 1 to 1000',
    });
    const fields = result.errors.entries[entry.id] ?? {};
    expect(Object.keys(fields).sort()).toEqual(['extractName', 'headers.row-a.name', 'url']);
  });

  it('does not need a name to generate or validate', () => {
    expect(checkScriptRequest(form({ name: '', entries: [createEntry({ url: 'https://a.test' })] })).ok).toBe(
      true,
    );
  });

  it('maps the server field paths of a 400 answer onto the form', () => {
    const entry = createEntry({ url: 'https://a.test', headers: [{ id: 'row-z', name: 'A', value: 'b' }] });
    const { sources } = snapshotForm(form({ entries: [entry] }));
    const errors: FormErrors = { plan: {}, entries: {} };
    addFieldError(errors, sources, 'urls.0.headers.0.value', 'Bad value');
    addFieldError(errors, sources, 'urls[0].thinkTime', 'Bad think time');
    addFieldError(errors, sources, 'duration', 'Bad duration');
    expect(errors).toEqual({
      plan: { duration: 'Bad duration' },
      entries: { [entry.id]: { 'headers.row-z.value': 'Bad value', thinkTime: 'Bad think time' } },
    });
  });
});

describe('API names and URLs on the script-upload screen', () => {
  it('requires a name for every API sent from script-input plans only', () => {
    const named = createEntry({ name: 'List', url: 'https://api.test/a' });
    const unnamed = createEntry({ name: '  ', url: 'https://api.test/b' });
    const script = form({ sourcePage: 'script-input', entries: [named, unnamed] });
    const check = checkPlan(script);
    expect(check.ok).toBe(false);
    expect(check.errors.entries[unnamed.id]).toEqual({ name: 'Enter the API name' });
    expect(check.errors.entries[named.id]).toBeUndefined();
    expect(checkScriptRequest(script).ok).toBe(false);
    expect(checkPlan(form({ entries: [named, unnamed] })).ok).toBe(true);
  });

  it('stops on an API with a blank URL there instead of leaving it out', () => {
    const named = createEntry({ name: 'List', url: 'https://api.test/a' });
    const blank = createEntry({ name: 'Create', url: ' ' });
    const bare = createEntry();
    const script = form({ sourcePage: 'script-input', entries: [named, blank, bare] });
    const check = checkPlan(script);
    expect(check.ok).toBe(false);
    expect(check.errors.entries[blank.id]).toEqual({ url: 'Enter the URL' });
    expect(check.errors.entries[bare.id]).toEqual({ name: 'Enter the API name', url: 'Enter the URL' });
    expect(checkScriptRequest(script).ok).toBe(false);
    // The URL screen still leaves an entry without a URL out of the plan.
    expect(checkPlan(form({ entries: [named, blank] })).ok).toBe(true);
  });
});
