import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { editorText } from '@/test/code-editor';
import { noticeTexts } from '@/test/notices';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

// A performance plan's test data on the URL-input screen (docs/adr/0027-load-profiles.md "Test data").

type User = ReturnType<typeof userEvent.setup>;

async function replace(user: User, element: HTMLElement, text: string) {
  await user.clear(element);
  await user.click(element);
  await user.paste(text);
}

describe('test data on the URL-input screen', { timeout: 20_000 }, () => {
  let fetchMock: FetchMock;

  beforeEach(() => {
    fetchMock = createFetchMock({
      'GET /api/me': () => json({ user: TEST_USER }),
      'POST /api/save-test-plan': () =>
        json(
          { id: 'plan-1', _id: 'plan-1', plan_id: 'plan-1', message: 'Test plan saved successfully' },
          201,
        ),
      'POST /api/generate-script': () => json({ script: 'generated', filename: 'x.jmx', warnings: [] }),
    });
    vi.stubGlobal('fetch', fetchMock);
    signInAs();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const sent = () => {
    const call = fetchMock.mock.calls.find(([input]) => input === '/api/save-test-plan');
    return call ? (bodyOf(call[1]) as Record<string, unknown>) : undefined;
  };

  it('attaches a CSV with its rows and columns, sets its options, saves it, and removes it', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/create-test/url-input');
    await screen.findByTestId('url-input-page', undefined, { timeout: 10_000 });
    await replace(user, screen.getByTestId('plan-name'), 'With data');
    await replace(user, screen.getByTestId('api-0-url'), 'https://api.test/users/{{id}}');

    const csv = new File(['id,email\n1,a@x.test\n2,b@x.test\n3,c@x.test\n'], 'users.csv', {
      type: 'text/csv',
    });
    await user.upload(screen.getByTestId('test-data-input'), csv);
    expect(await screen.findByTestId('test-data-0-rows')).toHaveTextContent('3 rows');
    expect(screen.getByTestId('test-data-0')).toHaveTextContent('Columns: id, email');
    await user.selectOptions(screen.getByTestId('test-data-0-share'), 'user');
    await user.click(screen.getByTestId('test-data-0-loop'));

    // The generated script reads the rows from the file written beside it.
    await user.click(screen.getByTestId('generate-plan'));
    await waitFor(() =>
      expect(editorText(screen.getByTestId('script-text'))).toContain(
        '<stringProp name="filename">aqa_data_1_users.csv</stringProp>',
      ),
    );

    await user.click(screen.getByTestId('save-plan'));
    await waitFor(() => expect(noticeTexts()).toContain('Test plan saved successfully!'));
    expect(sent()).toMatchObject({
      data_files: { 'users.csv': 'id,email\n1,a@x.test\n2,b@x.test\n3,c@x.test\n' },
      data_sources: [{ path: 'users.csv', loop: false, random_order: false, share: 'user' }],
    });

    await user.click(screen.getByTestId('test-data-0-remove'));
    expect(screen.queryByTestId('test-data-0')).toBeNull();
  });

  it('says what is wrong with a malformed CSV, with its line', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/create-test/url-input');
    await screen.findByTestId('url-input-page', undefined, { timeout: 10_000 });
    const csv = new File(['id,email\n1,a\n2\n'], 'bad.csv', { type: 'text/csv' });
    await user.upload(screen.getByTestId('test-data-input'), csv);
    expect(await screen.findByTestId('test-data-0-problem')).toHaveTextContent(
      'Data file "bad.csv" line 3: 1 field where the header has 2',
    );
  });

  it('shows only the first problem of a CSV whose quoted field is not closed', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/create-test/url-input');
    await screen.findByTestId('url-input-page', undefined, { timeout: 10_000 });
    const csv = new File(['id,email\n1,"a\n2,b\n'], 'open.csv', { type: 'text/csv' });
    await user.upload(screen.getByTestId('test-data-input'), csv);
    expect(await screen.findByTestId('test-data-0-problem')).toHaveTextContent(
      /^Data file "open.csv" line 2: a quoted field is not closed$/,
    );
  });

  it('refuses a 21st data file in the browser, as the plan does (PERF_DATA_MAX_COUNT)', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/create-test/url-input');
    await screen.findByTestId('url-input-page', undefined, { timeout: 10_000 });
    for (let i = 1; i <= 21; i += 1) {
      await user.upload(
        screen.getByTestId('test-data-input'),
        new File([`id\n${i}\n`], `f${i}.csv`, { type: 'text/csv' }),
      );
    }
    await waitFor(() =>
      expect(noticeTexts()).toContain('f21.csv is not attached: a plan takes at most 20 data files.'),
    );
    expect(screen.getByTestId('test-data-19')).toBeInTheDocument();
    expect(screen.queryByTestId('test-data-20')).toBeNull();
  });
});
