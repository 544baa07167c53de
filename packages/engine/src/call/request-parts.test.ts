import { describe, expect, it } from 'vitest';
import { migratePlan } from '@aqa/plan';
import { compilePlan } from '../executor/compile';
import { entryRequestParts } from './request-parts';
import { Template, TemplateScope } from './template';

/*
 * What a performance plan's URL entry sends (docs/call-core.md "What a call sends"): the load
 * executor's steps and Validate both compile it through entryRequestParts, so these pins hold for both.
 */
const entry = {
  url: 'http://a.test/search?fixed=1',
  parameters: [
    { key: 'q', value: 'two words' },
    { key: 'who', value: '{{name}}' },
  ],
  headers: [
    { name: 'X-Tag', value: 'first' },
    { name: 'x-tag', value: 'second' },
  ],
};

const ctx = (scope: TemplateScope, vars: Record<string, string>) => ({
  vars: scope.variables.map((n) => vars[n]),
  seq: scope.moduli.map(() => 1),
});

describe('entryRequestParts', () => {
  it('encodes a space in a parameter as %20, in written values and in variables alike', () => {
    const plan = migratePlan({ name: 'p', concurrent_users: 1, urls: [entry] });
    const scope = new TemplateScope();
    const target = Template.of(plan.urls[0]!.url, scope);
    entryRequestParts(plan.urls[0]!, target, plan.urls[0]!.url, scope);
    expect(target.render(ctx(scope, { name: 'Ada L' }))).toBe(
      'http://a.test/search?fixed=1&q=two%20words&who=Ada%20L',
    );
  });

  it('sends a header written twice (in any case) once, with the later row', () => {
    const plan = migratePlan({ name: 'p', concurrent_users: 1, urls: [entry] });
    const scope = new TemplateScope();
    const { headers } = entryRequestParts(plan.urls[0]!, new Template(), '', scope);
    expect(headers.names).toEqual(['X-Tag']);
    expect(headers.values.map((v) => v.constant)).toEqual(['second']);
  });

  it('is what the load executor compiles for a step', () => {
    const step = compilePlan(migratePlan({ name: 'p', concurrent_users: 1, urls: [entry] })).steps[0]!;
    expect(step.staticHeaders).toEqual(['X-Tag', 'second']);
    expect(step.target.render({ vars: ['Ada L'], seq: [] })).toBe(
      '/search?fixed=1&q=two%20words&who=Ada%20L',
    );
  });
});
