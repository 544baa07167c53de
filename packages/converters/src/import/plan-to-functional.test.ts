import { FunctionalPlanSchema, PerfPlanSchema, UrlEntrySchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import type { ImportWarning } from './import-model';
import { planToFunctional, stepToFunctionalApi } from './plan-to-functional';

/*
 * A performance plan's validation items become functional rules of the one dialect the call core judges
 * (docs/call-core.md): a status class such as 2xx, or a list such as 200, 201, is one of them, kept rather
 * than left out.
 */
describe('a performance step as a functional API', () => {
  it('keeps status class and status list rules, in lower case, and leaves out only what the dialect cannot read', () => {
    const step = UrlEntrySchema.parse({
      url: 'https://api.example.test/users',
      method: 'GET',
      validations: [
        { id: '1', name: 'ok', type: 'status_code', expected_value: '2XX' },
        { id: '2', name: 'exact', type: 'status_code', expected_value: '201' },
        { id: '3', name: 'either', type: 'status_code', expected_value: '200, 201' },
        { id: '4', name: 'typo', type: 'status_code', expected_value: '2x' },
      ],
    });
    const warnings: ImportWarning[] = [];
    const api = stepToFunctionalApi(step, undefined, 'urls[0]', warnings);
    expect(api.validations?.map((v) => [v.name, v.type, v.expected_value])).toEqual([
      ['ok', 'status_code', '2xx'],
      ['exact', 'status_code', '201'],
      ['either', 'status_code', '200, 201'],
    ]);
    expect(warnings).toEqual([
      {
        location: 'urls[0]',
        message:
          'Validation "typo" is left out: Expected status must be a whole number from 100 to 599, a class such as 2xx, or several of them: 200, 201',
      },
    ]);
  });

  it('reads every item as Validate judges it: 500ms, a path without $, a header value contained', () => {
    const step = UrlEntrySchema.parse({
      url: 'https://api.example.test/users',
      method: 'GET',
      validations: [
        { id: '1', name: 'fast', type: 'response_time', expected_value: '500ms' },
        { id: '2', name: 'who', type: 'json_path', expected_value: 'user.name = Ada' },
        { id: '3', name: 'json', type: 'header_value', expected_value: 'Content-Type: application/json' },
      ],
    });
    const warnings: ImportWarning[] = [];
    const api = stepToFunctionalApi(step, undefined, 'urls[0]', warnings);
    expect(api.validations?.map((v) => [v.name, v.type, v.expected_value, v.subject])).toEqual([
      ['fast', 'response_time', '500', undefined],
      ['who', 'json_path', '$.user.name == Ada', undefined],
      ['json', 'regex', '(?im)^Content-Type: [^\\n]*application/json', 'headers'],
    ]);
    expect(warnings).toEqual([]);
  });

  it("keeps the entry's own assertion as a rule judged as the load executor judges it", () => {
    const api = (fields: Record<string, string>) => {
      const warnings: ImportWarning[] = [];
      const step = UrlEntrySchema.parse({ url: 'https://api.example.test/users', method: 'GET', ...fields });
      const converted = stepToFunctionalApi(step, undefined, 'urls[0]', warnings);
      expect(warnings).toEqual([]);
      return converted.validations;
    };
    expect(
      api({
        assertionType: 'json',
        assertionPath: '$.user.id',
        assertionOperator: 'not_equals',
        assertionValue: '7',
      }),
    ).toEqual([
      {
        name: 'Assertion',
        description: '',
        enabled: true,
        type: 'equals',
        negate: true,
        subject: 'json',
        path: '$.user.id',
        expected_value: '7',
      },
    ]);
    expect(
      api({
        assertionType: 'xml',
        assertionPath: '//name',
        assertionOperator: 'regex',
        assertionValue: '^A',
      }),
    ).toMatchObject([{ type: 'regex', subject: 'xml', path: '//name', expected_value: '^A' }]);
    expect(api({ assertionType: 'text', assertionOperator: 'equals', assertionValue: 'OK' })).toMatchObject([
      { type: 'equals', expected_value: 'OK' },
    ]);
    expect(
      api({ assertionType: 'status', assertionOperator: 'equals', assertionValue: ' 201' }),
    ).toMatchObject([{ type: 'status_code', expected_value: '201' }]);
    // No value, or a json assertion without a path, asserts nothing.
    expect(api({ assertionType: 'json', assertionPath: '', assertionValue: 'x' })).toEqual([]);
  });

  it('makes a plan the API test model reads, its assertion and header items kept', () => {
    const perf = PerfPlanSchema.parse({
      name: 'Users',
      urls: [
        {
          url: 'https://api.example.test/users',
          method: 'GET',
          assertionType: 'xml',
          assertionPath: '/users/user/name',
          assertionOperator: 'equals',
          assertionValue: 'Ada',
          validations: [{ id: '1', name: 'xml', type: 'header_value', expected_value: 'Content-Type: xml' }],
        },
      ],
    });
    const { plan, warnings } = planToFunctional(perf);
    expect(warnings).toEqual([]);
    const read = FunctionalPlanSchema.parse(plan);
    expect(read.apis[0]?.validations.map((v) => [v.type, v.subject, v.path])).toEqual([
      ['regex', 'headers', undefined],
      ['equals', 'xml', '/users/user/name'],
    ]);
  });
});
