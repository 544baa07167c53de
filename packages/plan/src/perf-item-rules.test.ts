import { describe, expect, it } from 'vitest';
import { FunctionalValidationSchema } from './functional/validation';
import { perfItemRule, splitJsonPathItem } from './perf-item-rules';
import type { ValidationItem } from './perf-plan';

const item = (type: ValidationItem['type'], expected_value: string): ValidationItem => ({
  id: '1',
  name: '',
  type,
  expected_value,
  description: '',
});

describe('splitJsonPathItem', () => {
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
    expect(splitJsonPathItem(expected)).toEqual(split);
  });
});

describe('perfItemRule: a performance plan item as a rule of the one dialect', () => {
  it.each<[ValidationItem['type'], string, Record<string, unknown> | null]>([
    ['status_code', ' 2XX, 304 ', { type: 'status_code', expected_value: '2XX, 304' }],
    ['status_code', 'ok', null],
    ['response_time', '500ms', { type: 'response_time', expected_value: '500' }],
    ['response_time', 'fast', null],
    ['response_size', '1024 bytes', { type: 'response_size', expected_value: '1024' }],
    ['contains_text', '"name":"Ada"', { type: 'contains_text', expected_value: '"name":"Ada"' }],
    ['json_path', 'user.name = Ada', { type: 'json_path', expected_value: '$.user.name == Ada' }],
    ['json_path', '$.a != 1', { type: 'json_path', expected_value: '$.a != 1' }],
    ['json_path', '[0].id', { type: 'json_path', expected_value: '$[0].id' }],
    [
      'json_path',
      "$.items[?(@.id == 2 && @.n == 'a b')].name",
      { type: 'json_path', expected_value: "$.items[?(@.id==2&&@.n=='a b')].name" },
    ],
    [
      'header_value',
      'Content-Type: application/json',
      { type: 'regex', subject: 'headers', expected_value: '(?im)^Content-Type: [^\\n]*application/json' },
    ],
    ['header_value', 'X-Id', { type: 'regex', subject: 'headers', expected_value: '(?im)^X-Id: [^\\n]*' }],
    [
      'header_value',
      'text/html; q=0.9',
      { type: 'regex', subject: 'headers', expected_value: '(?im)^[^:\\n]*: [^\\n]*text/html; q=0\\.9' },
    ],
  ])('%s %s', (type, expected, rule) => {
    const read = perfItemRule(item(type, expected));
    if (rule === null) expect(read).toBeNull();
    else {
      expect(read).toMatchObject(rule);
      // Every rule it gives is one the functional model accepts as it stands.
      expect(FunctionalValidationSchema.safeParse(read).success).toBe(true);
    }
  });
});
