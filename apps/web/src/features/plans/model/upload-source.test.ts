import { migratePlan } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { checkUpload, entriesFromSteps, megabytes, rebaseUrl, uploadScriptFileName } from './upload-source';

const input = (overrides: Partial<Parameters<typeof checkUpload>[0]>) => ({
  kind: 'swagger' as const,
  file: { name: 'spec.yaml', size: 10 },
  command: '',
  baseUrl: '',
  maxFileBytes: 25 * 1024 * 1024,
  ...overrides,
});

describe('checking an upload before it is sent', () => {
  it('accepts the extensions of docs/reference/01-authoring.md §2 and refuses the others', () => {
    for (const name of ['a.json', 'a.yaml', 'A.YML'])
      expect(checkUpload(input({ file: { name, size: 1 } }))).toBeNull();
    expect(checkUpload(input({ file: { name: 'a.txt', size: 1 } }))).toEqual({
      problem: 'wrongType',
      kind: 'swagger',
      file: 'a.txt',
    });
    expect(checkUpload(input({ kind: 'postman', file: { name: 'c.yaml', size: 1 } }))?.problem).toBe(
      'wrongType',
    );
    expect(checkUpload(input({ kind: 'har', file: { name: 'x.har', size: 1 } }))).toBeNull();
    expect(checkUpload(input({ kind: 'excel', file: { name: 'x.csv', size: 1 } }))?.problem).toBe(
      'wrongType',
    );
  });

  it('wants a file or a command, not empty and not over 25 MB, and a full base URL when one is given', () => {
    expect(checkUpload(input({ file: null }))).toEqual({ problem: 'noFile', kind: 'swagger' });
    expect(checkUpload(input({ kind: 'curl', file: null, command: '  ' }))).toEqual({ problem: 'noCommand' });
    expect(checkUpload(input({ kind: 'curl', file: null, command: 'curl https://a.test' }))).toBeNull();
    expect(checkUpload(input({ file: { name: 'a.json', size: 0 } }))?.problem).toBe('empty');
    expect(checkUpload(input({ file: { name: 'a.json', size: 25 * 1024 * 1024 } }))).toBeNull();
    expect(checkUpload(input({ file: { name: 'a.json', size: 25 * 1024 * 1024 + 1 } }))).toEqual({
      problem: 'tooLarge',
      file: 'a.json',
      maxBytes: 25 * 1024 * 1024,
    });
    expect(checkUpload(input({ baseUrl: 'localhost:8080' }))).toEqual({ problem: 'baseUrl' });
    expect(checkUpload(input({ baseUrl: ' http://localhost:8080/api ' }))).toBeNull();
  });

  it("follows the server's own bound, and leaves the size to the server while the bound is not known", () => {
    const file = { name: 'a.json', size: 30 * 1024 * 1024 };
    expect(checkUpload(input({ file, maxFileBytes: 40 * 1024 * 1024 }))).toBeNull();
    expect(checkUpload(input({ file, maxFileBytes: 20 * 1024 * 1024 }))?.problem).toBe('tooLarge');
    expect(checkUpload(input({ file, maxFileBytes: null }))).toBeNull();
    expect(megabytes(25 * 1024 * 1024)).toBe('25');
    expect(megabytes(512 * 1024)).toBe('0.5');
  });
});

describe('re-basing imported requests', () => {
  it('replaces the scheme and host, or a leading {{variable}}, and keeps the path and query', () => {
    expect(rebaseUrl('https://api.test/v1/users?page=1', 'http://127.0.0.1:8080/api/')).toBe(
      'http://127.0.0.1:8080/api/v1/users?page=1',
    );
    expect(rebaseUrl('https://api.test', 'http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(rebaseUrl('{{baseUrl}}/users/1', 'http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/users/1');
    expect(rebaseUrl('https://api.test/x', '  ')).toBe('https://api.test/x');
  });

  it('turns the answer steps into editors, re-based, and reports a step the model cannot read', () => {
    const steps = migratePlan({ name: 'x', urls: [{ name: 'One', url: 'https://a.test/one' }] }).urls;
    const { entries, unreadable } = entriesFromSteps([...steps, { method: 'BREW', url: 'x' }], {
      baseUrl: 'http://127.0.0.1:1',
    });
    expect(entries.map((entry) => [entry.name, entry.url])).toEqual([['One', 'http://127.0.0.1:1/one']]);
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0]?.index).toBe(1);
  });
});

it('names downloads performance_test_{tool} with the tool extension', () => {
  expect(uploadScriptFileName('jmeter')).toBe('performance_test_jmeter.jmx');
  expect(uploadScriptFileName('k6')).toBe('performance_test_k6.js');
  expect(uploadScriptFileName('locust')).toBe('performance_test_locust.py');
  expect(uploadScriptFileName('taurus')).toBe('performance_test_taurus.yml');
});
