import { describe, expect, it } from 'vitest';
import { cliCommand, cliFileName, savedCliPlan } from './cli-plan';

describe('the aqa test file', () => {
  it('is named after the test, without what file systems refuse', () => {
    expect(cliFileName('Checkout flow')).toBe('Checkout flow.json');
    expect(cliFileName(' a/b:c*?"<>| d\t')).toBe('a b c d.json');
    expect(cliFileName('..hidden')).toBe('hidden.json');
    expect(cliFileName('  ')).toBe('functional-plan.json');
  });

  it('is run by a command the shell reads as one file name', () => {
    expect(cliCommand('smoke.json')).toBe('npx aqa test smoke.json --junit junit.xml');
    expect(cliCommand("Bob's plan.json")).toBe(`npx aqa test 'Bob'\\''s plan.json' --junit junit.xml`);
  });

  it('holds the saved body as the model reads it, with the saved id, or nothing', () => {
    const body = JSON.stringify({ test_name: 'T', apis: [{ name: 'A', url: 'http://127.0.0.1:9/' }] });
    const plan = savedCliPlan(body, 'fp-3');
    expect(plan).toMatchObject({ id: 'fp-3', test_name: 'T', iterations: 1 });
    expect(plan?.apis[0]).toMatchObject({ method: 'GET', timeout: 30, validations: [] });
    expect(savedCliPlan(body, null)).toBeNull();
    expect(savedCliPlan(null, 'fp-3')).toBeNull();
    expect(savedCliPlan(JSON.stringify({ test_name: '', apis: [] }), 'fp-3')).toBeNull();
  });
});
