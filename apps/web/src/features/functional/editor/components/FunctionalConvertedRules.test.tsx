import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { noticeTexts } from '@/test/notices';
import { bodyOf, json, TEST_USER } from '@/test/render';
import { answerFetchWith, openEditorScreen, setUpEditorScreenTests } from '../../test/editor-screen';

/*
 * A plan converted from a performance plan (its entries' assertions as rules of the one dialect,
 * docs/call-core.md "A performance plan's assertion") or read from a Taurus script holds rules whose
 * subject, path and negate no control of the API editor edits: the editor shows them as text and saves
 * them unchanged, rather than dropping them (the rule would then read the body, not negated).
 */

const RULES = [
  {
    id: 'r1',
    name: 'Assertion',
    type: 'equals',
    expected_value: '7',
    description: '',
    enabled: true,
    negate: true,
    subject: 'json',
    path: '$.user.id',
  },
  {
    id: 'r2',
    name: 'No error header',
    type: 'regex',
    expected_value: '(?i)^x-error:',
    description: '',
    enabled: true,
    subject: 'headers',
  },
  { id: 'r3', name: 'Ok', type: 'status_code', expected_value: '200', description: '', enabled: true },
];

describe('rules the API editor has no control for', { timeout: 20_000 }, () => {
  setUpEditorScreenTests();
  let updates: Record<string, unknown>[];

  beforeEach(() => {
    updates = [];
    answerFetchWith({
      'GET /api/me': () => json({ user: TEST_USER }),
      'GET /api/functional/get-test-config/fp-7': () =>
        json({
          id: 'fp-7',
          test_name: 'Converted',
          test_type: 'functional',
          source: 'url_input',
          apis: [{ name: 'User', url: 'http://127.0.0.1:9/user', method: 'GET', validations: RULES }],
          version: 1,
        }),
      'PUT /api/functional/update-config/fp-7': ({ body }) => {
        updates.push(bodyOf({ body }) as Record<string, unknown>);
        return json({ id: 'fp-7', test_id: 'fp-7', version: 2 });
      },
    });
  });

  it('shows what each rule reads, and saves it unchanged', async () => {
    const user = userEvent.setup({ delay: null });
    await openEditorScreen('/functional-test/url-input?planId=fp-7', 'functional-url-input-page');
    await waitFor(() => expect(screen.getByTestId('test-name')).toHaveValue('Converted'));

    expect(screen.getByTestId('api-0-rule-0')).toHaveTextContent('equals');
    expect(screen.getByTestId('api-0-rule-0-reads')).toHaveTextContent(
      'Reads the value at $.user.id (JSONPath); a path that matches nothing reads as empty text · Negated: passes when the check fails',
    );
    expect(screen.getByTestId('api-0-rule-1-reads')).toHaveTextContent('Reads the header lines');
    expect(screen.queryByTestId('api-0-rule-2-reads')).toBeNull();

    await user.click(screen.getByTestId('functional-save'));
    await waitFor(() => expect(noticeTexts()).toContain('Updated! Test ID: fp-7'));
    const apis = updates[0]?.apis as { validations: Record<string, unknown>[] }[];
    // The form gives each rule a new id on load (functional-form.ts); all else is as it was read.
    const withoutId = ({ id: _id, ...rule }: Record<string, unknown>) => rule;
    expect(apis[0]?.validations.map(withoutId)).toEqual(RULES.map(withoutId));
  });
});
