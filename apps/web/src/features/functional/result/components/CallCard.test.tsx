import type { CallResult } from '@aqa/plan';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { CallCard } from './CallCard';

/** A Postman request's call (docs/adr/0029-postman-collections.md §3): a named rule and pm.tests. */
const call = (status: number | null): CallResult => ({
  api_name: 'Who am I without a token',
  method: 'GET',
  url: 'http://127.0.0.1:9/me',
  status_code: status,
  response_time: 3,
  success: false,
  iteration: 1,
  validation_details: [
    {
      type: 'json_path',
      name: 'Has a user id',
      expected: '$.id',
      actual: null,
      passed: false,
      message: 'expected $.id in the body; it is not there',
    },
    {
      type: 'script',
      name: 'Is cached',
      expected: 'skipped',
      actual: null,
      passed: true,
      message: 'skipped',
    },
    { type: 'status_code', expected: '200', actual: String(status), passed: false, message: 'status' },
  ],
});

function rows() {
  return screen.getAllByTestId('validation-detail');
}

describe('CallCard', () => {
  it('names each rule and test as Newman lists them, and an unnamed rule by its type alone', () => {
    renderWithRouter(<CallCard call={call(401)} number={1} testId="fc_1" />);
    const [rule, test, unnamed] = rows();
    expect(within(rule!).getByTestId('detail-name')).toHaveTextContent('Has a user id');
    expect(within(test!).getByTestId('detail-name')).toHaveTextContent('Is cached');
    expect(within(unnamed!).queryByTestId('detail-name')).toBeNull();
  });

  it('says a rule found nothing in a response that came, and "no response" only when none came', () => {
    const { unmount } = renderWithRouter(<CallCard call={call(401)} number={1} testId="fc_1" />);
    expect(within(rows()[0]!).getByTestId('detail-actual')).toHaveTextContent('not found in the response');
    // A skipped test has no actual value; its message says why.
    expect(within(rows()[1]!).getByTestId('detail-actual')).toHaveTextContent('—');
    unmount();
    renderWithRouter(<CallCard call={call(null)} number={1} testId="fc_1" />, { language: 'ko' });
    expect(within(rows()[0]!).getByTestId('detail-actual')).toHaveTextContent('응답 없음');
  });
});
