import { describe, expect, it } from 'vitest';
import {
  API_VALIDATION_TYPES,
  FUNCTIONAL_BOUNDS,
  FUNCTIONAL_TEST_ID_PREFIX,
  FUNCTIONAL_VALIDATION_TYPES,
  FunctionalPlanSchema,
  UI_VALIDATION_TYPES,
} from './functional';
import { MESSAGE_TEST_TYPES } from './messages';
import {
  asTestKind,
  kindOf,
  runKindOf,
  runsInBrowser,
  TEST_KIND_NAMES,
  TEST_KINDS,
  type KindMarks,
  type TestKind,
} from './test-kind';

describe('kindOf', () => {
  // Every mark a plan, a run request or a row has written, in each of the three vocabularies.
  const cases: [KindMarks, TestKind, TestKind][] = [
    [{}, 'api', 'api'],
    [{ source: 'url_input' }, 'api', 'api'],
    [{ source: 'url_input', test_type: 'functional', test_framework: 'taurus' }, 'api', 'api'],
    [{ source: 'url_input', test_type: 'api' }, 'api', 'api'],
    [{ source: 'url_input', test_type: 'ui' }, 'ui', 'ui'],
    [{ source: 'url_input', test_framework: 'selenium' }, 'ui', 'ui'],
    [{ source: 'ui_url_input' }, 'ui', 'ui'],
    [{ source: 'ui_url_input', test_type: 'functional' }, 'ui', 'ui'],
    [{ source: 'script_input' }, 'script', 'script'],
    [{ source: 'script_input', test_type: 'functional', test_framework: 'taurus' }, 'script', 'script'],
    [{ source: 'script_input', test_type: 'api' }, 'script', 'script'],
    [{ source: 'script_input', test_framework: 'selenium' }, 'script', 'ui'],
    [{ source: 'script_input', test_type: 'ui' }, 'script', 'ui'],
    [{ test_type: 'ui' }, 'ui', 'ui'],
    [{ test_type: 'functional' }, 'api', 'api'],
    [{ kind: 'load' }, 'load', 'load'],
    [{ kind: 'api', source: 'ui_url_input' }, 'api', 'api'],
    [{ kind: 'script' }, 'script', 'script'],
    [{ kind: 'script', test_framework: 'selenium' }, 'script', 'ui'],
    [{ kind: 'ui' }, 'ui', 'ui'],
    [{ kind: 'websocket', source: 'script_input' }, 'script', 'script'],
  ];

  it.each(cases)('reads %j as written %s, run as %s', (marks, kind, runKind) => {
    expect(kindOf(marks)).toBe(kind);
    expect(runKindOf(marks)).toBe(runKind);
    expect(runsInBrowser(marks)).toBe(runKind === 'ui');
  });

  it('reads a parsed plan of each screen by its defaults', () => {
    const plan = (source: 'url_input' | 'ui_url_input' | 'script_input', extra = {}) =>
      FunctionalPlanSchema.parse({
        test_name: 'T',
        source,
        apis: [{ name: 'A', url: 'https://example.test/' }],
        script_content: 'execution: []',
        ...extra,
      });
    expect(kindOf(plan('url_input'))).toBe('api');
    // A UI source defaults its framework to selenium.
    expect(kindOf(plan('ui_url_input'))).toBe('ui');
    expect(kindOf(plan('script_input'))).toBe('script');
    expect(runKindOf(plan('script_input'))).toBe('script');
    expect(runKindOf(plan('script_input', { test_framework: 'selenium' }))).toBe('ui');
  });

  it('knows only the four kinds as stored words', () => {
    for (const kind of TEST_KIND_NAMES) expect(asTestKind(kind)).toBe(kind);
    for (const word of ['functional', 'url_input', 'UI', '', null, 3]) expect(asTestKind(word)).toBeNull();
  });
});

describe('TEST_KINDS', () => {
  it('describes every kind', () => {
    expect(Object.keys(TEST_KINDS).sort()).toEqual([...TEST_KIND_NAMES].sort());
    for (const kind of TEST_KIND_NAMES) {
      const facts = TEST_KINDS[kind];
      expect(facts.editorPath).toMatch(/^\/[a-z-]+\/[a-z-]+$/);
      expect(facts.resultPath).toMatch(/^\/[a-z-]+\/$/);
      expect(facts.idPrefix).toMatch(/^[a-z]+_$/);
      expect(MESSAGE_TEST_TYPES).toContain(facts.messageTestType);
      expect(facts.aWord.toLowerCase()).toMatch(/^an? /);
    }
  });

  it('gives each kind its own editor, and load its own results and ids', () => {
    const editors = TEST_KIND_NAMES.map((kind) => TEST_KINDS[kind].editorPath);
    expect(new Set(editors).size).toBe(TEST_KIND_NAMES.length);
    expect(TEST_KINDS.load).toMatchObject({ resultPath: '/test-result/', idPrefix: 'run_' });
    for (const kind of ['api', 'script', 'ui'] as const) {
      expect(TEST_KINDS[kind]).toMatchObject({
        resultPath: '/functional-test-result/',
        idPrefix: FUNCTIONAL_TEST_ID_PREFIX,
      });
    }
  });

  it('names the words, rule types and bounds the model checks a plan by', () => {
    expect(TEST_KINDS.load).toMatchObject({ messageTestType: 'load', ruleTypes: null, iterations: null });
    expect(TEST_KINDS.api).toMatchObject({
      messageTestType: 'api',
      ruleTypes: [...API_VALIDATION_TYPES, 'regex', 'xpath', 'equals'],
    });
    expect(TEST_KINDS.script).toMatchObject({
      messageTestType: 'api',
      ruleTypes: FUNCTIONAL_VALIDATION_TYPES,
    });
    expect(TEST_KINDS.ui).toMatchObject({ messageTestType: 'ui', ruleTypes: UI_VALIDATION_TYPES });
    expect(TEST_KINDS.api.iterations).toEqual(FUNCTIONAL_BOUNDS.iterations);
    expect(TEST_KINDS.script.iterations).toEqual(FUNCTIONAL_BOUNDS.iterations);
    expect(TEST_KINDS.ui.iterations).toEqual(FUNCTIONAL_BOUNDS.ui_iterations);
    // Back from a UI result goes to the dashboard (docs/reference/02-running.md §4 "Back navigation").
    expect(TEST_KIND_NAMES.filter((kind) => TEST_KINDS[kind].backFromResult === 'dashboard')).toEqual(['ui']);
  });

  it('is what the plan model checks by: a Selenium script has the UI bounds', () => {
    const script = {
      test_name: 'Browser script',
      source: 'script_input',
      test_framework: 'selenium',
      script_content: 'execution: []',
    } as const;
    expect(FunctionalPlanSchema.safeParse({ ...script, iterations: 10 }).success).toBe(true);
    expect(FunctionalPlanSchema.safeParse({ ...script, iterations: 11 }).success).toBe(false);
    expect(
      FunctionalPlanSchema.safeParse({ ...script, test_framework: 'taurus', iterations: 11 }).success,
    ).toBe(true);
    // A URL plan in a browser is checked by the UI rule types.
    const ui = FunctionalPlanSchema.safeParse({
      test_name: 'Pages',
      source: 'url_input',
      test_framework: 'selenium',
      apis: [
        {
          name: 'Home',
          url: 'https://example.test/',
          validations: [{ type: 'json_path', expected_value: '$.ok' }],
        },
      ],
    });
    expect(ui.error?.issues.map((issue) => issue.message)).toContain(
      'A UI test checks contains_text, element_exists, page_title, not json_path',
    );
  });
});
