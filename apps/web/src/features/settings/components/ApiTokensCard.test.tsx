import { API_TOKEN_MESSAGES, type ApiToken, type ApiTokenCreated } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

const NEVER_USED: ApiToken = {
  id: 't-1',
  name: 'GitHub Actions',
  created_at: '2030-01-02T10:00:00.000Z',
  last_used_at: null,
  expires_at: null,
  expired: false,
  scope: 'api',
};
const EXPIRED: ApiToken = {
  id: 't-2',
  name: 'Old nightly',
  created_at: '2029-01-01T10:00:00.000Z',
  last_used_at: '2029-06-01T08:30:00.000Z',
  expires_at: '2029-12-01T10:00:00.000Z',
  expired: true,
  scope: 'agent',
};
const SECRET = `aqa_${'k'.repeat(43)}`;

let tokens: ApiToken[];
let fetchMock: FetchMock;

beforeEach(() => {
  tokens = [NEVER_USED, EXPIRED];
  fetchMock = createFetchMock({
    'GET /api/me': () => json({ user: TEST_USER }),
    'GET /api/tokens': () => json({ tokens, limit: 50 }),
    'POST /api/tokens': (init) => {
      const body = bodyOf(init) as { name: string; expires_in_days?: number; scope?: 'api' | 'agent' };
      const created: ApiTokenCreated = {
        id: 't-3',
        name: body.name,
        created_at: '2030-01-03T09:00:00.000Z',
        last_used_at: null,
        expires_at: body.expires_in_days === undefined ? null : '2030-02-02T09:00:00.000Z',
        expired: false,
        scope: body.scope ?? 'api',
        token: SECRET,
      };
      const { token: _once, ...listed } = created;
      tokens = [listed, ...tokens];
      return json(created, 201, 'Created');
    },
    'DELETE /api/tokens/t-1': () => {
      tokens = tokens.filter((t) => t.id !== 't-1');
      return new Response(null, { status: 204 });
    },
  });
  vi.stubGlobal('fetch', fetchMock);
  signInAs();
});
afterEach(() => vi.unstubAllGlobals());

const calls = (method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => (url as string).startsWith(path) && (init?.method ?? 'GET').toUpperCase() === method,
  );

describe('Settings → API tokens', () => {
  it("offers the scope, API or Load agent, sends it, and shows each token's scope in the list, in English and Korean", async () => {
    const user = userEvent.setup();
    renderApp('/settings');
    const rows = await screen.findAllByTestId('token-row');
    expect(rows.map((row) => within(row).getByTestId('token-row-scope').textContent)).toEqual([
      'API',
      'Load agent',
    ]);
    // API is the default, and says what it is for.
    expect(screen.getByRole('radio', { name: /API: CI jobs/ })).toBeChecked();
    expect(screen.getByTestId('token-scope-hint')).toHaveTextContent('Load agents refuse it.');
    await user.click(screen.getByRole('radio', { name: /Load agent: aqa agent only/ }));
    expect(screen.getByTestId('token-scope-hint')).toHaveTextContent('is refused everywhere else');
    await user.type(screen.getByTestId('token-name'), 'Load machines');
    await user.click(screen.getByTestId('token-create'));
    await screen.findByTestId('token-created');
    expect(bodyOf(calls('POST', '/api/tokens')[0]![1])).toEqual({ name: 'Load machines', scope: 'agent' });
    expect(screen.getByTestId('token-created')).toHaveTextContent('Give it to aqa agent with --token');
    await waitFor(() =>
      expect(screen.getAllByTestId('token-row-scope').map((b) => b.textContent)).toEqual([
        'Load agent',
        'API',
        'Load agent',
      ]),
    );
  });

  it('names the scopes in Korean', async () => {
    renderApp('/settings', { language: 'ko' });
    const rows = await screen.findAllByTestId('token-row');
    expect(within(rows[1]!).getByTestId('token-row-scope')).toHaveTextContent('부하 에이전트');
    expect(screen.getByRole('radio', { name: /부하 에이전트: aqa agent 전용/ })).not.toBeChecked();
  });

  it('lists each token with its dates, says never used and never expires, and marks an expired one', async () => {
    renderApp('/settings');
    const rows = await screen.findAllByTestId('token-row');
    expect(rows.map((row) => within(row).getByTestId('token-row-name').textContent)).toEqual([
      'GitHub Actions',
      'Old nightly',
    ]);
    const [fresh, old] = rows as [HTMLElement, HTMLElement];
    expect(within(fresh).getByTestId('token-row-dates')).toHaveTextContent(
      /^Created .+ · Never used · Never expires$/,
    );
    expect(within(fresh).queryByTestId('token-row-expired')).toBeNull();
    expect(within(old).getByTestId('token-row-expired')).toHaveTextContent('Expired');
    expect(within(old).getByTestId('token-row-dates')).toHaveTextContent(
      /Last used .*2029.* · Expired .*2029/,
    );
    expect(screen.getByTestId('token-count')).toHaveTextContent('2 of 50');
  });

  it('checks the name and expiry before sending, then shows the token once with a copy button', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderApp('/settings');
    await screen.findAllByTestId('token-row');

    await user.click(screen.getByTestId('token-create'));
    expect(screen.getByTestId('token-name-error')).toHaveTextContent('Please enter a token name');
    await user.type(screen.getByTestId('token-name'), 'Deploy job');
    for (const bad of ['0', '3651', '1.5', 'ten']) {
      await user.clear(screen.getByTestId('token-expiry'));
      await user.type(screen.getByTestId('token-expiry'), bad);
      await user.click(screen.getByTestId('token-create'));
      expect(screen.getByTestId('token-expiry-error')).toHaveTextContent(
        'Expiry must be a whole number of days from 1 to 3650',
      );
    }
    expect(calls('POST', '/api/tokens')).toHaveLength(0);

    await user.clear(screen.getByTestId('token-expiry'));
    await user.type(screen.getByTestId('token-expiry'), '30');
    await user.click(screen.getByTestId('token-create'));
    const panel = await screen.findByTestId('token-created');
    expect(bodyOf(calls('POST', '/api/tokens')[0]?.[1])).toEqual({
      name: 'Deploy job',
      scope: 'api',
      expires_in_days: 30,
    });
    expect(within(panel).getByTestId('token-value')).toHaveValue(SECRET);
    expect(within(panel).getByTestId('token-created-warning')).toHaveTextContent(
      'Copy it now: it will not be shown again.',
    );
    await user.click(within(panel).getByTestId('token-copy'));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(await screen.findByText('Token copied to clipboard')).toBeInTheDocument();
    // The list now has it, without the token; Done puts the token away for good.
    await waitFor(() => expect(screen.getAllByTestId('token-row')).toHaveLength(3));
    expect(screen.getByTestId('token-name')).toHaveValue('');
    await user.click(screen.getByTestId('token-done'));
    expect(screen.queryByTestId('token-created')).toBeNull();
    expect(document.body.innerHTML).not.toContain(SECRET);
  });

  it('shows the server refusal in words, in Korean too', async () => {
    fetchMock.mockImplementation(
      createFetchMock({
        'GET /api/me': () => json({ user: TEST_USER }),
        'GET /api/tokens': () => json({ tokens, limit: 50 }),
        'POST /api/tokens': () =>
          json({ detail: API_TOKEN_MESSAGES.tooMany, code: 'TOO_MANY_API_TOKENS' }, 409, 'Conflict'),
      }),
    );
    const user = userEvent.setup();
    renderApp('/settings', { language: 'ko' });
    await user.type(await screen.findByTestId('token-name'), 'CI');
    await user.click(screen.getByTestId('token-create'));
    expect(await screen.findByTestId('token-form-error')).toHaveTextContent(
      '토큰을 만들지 못했습니다: 이미 API 토큰이 50개 있습니다.',
    );
    expect(screen.queryByTestId('token-created')).toBeNull();
  });

  it('revokes a token only after the confirmation', async () => {
    const user = userEvent.setup();
    renderApp('/settings');
    const first = (await screen.findAllByTestId('token-row'))[0]!;
    await user.click(within(first).getByRole('button', { name: 'Revoke the token GitHub Actions' }));
    expect(screen.getByTestId('confirm-message')).toHaveTextContent(
      'Revoke the token "GitHub Actions"? Anything that uses it stops working at once.',
    );
    await user.click(screen.getByTestId('confirm-cancel'));
    expect(calls('DELETE', '/api/tokens/t-1')).toHaveLength(0);

    await user.click(within(first).getByTestId('token-revoke'));
    await user.click(screen.getByTestId('confirm-accept'));
    expect(await screen.findByText('Token "GitHub Actions" revoked')).toBeInTheDocument();
    expect(calls('DELETE', '/api/tokens/t-1')).toHaveLength(1);
    await waitFor(() =>
      expect(screen.getAllByTestId('token-row-name').map((n) => n.textContent)).toEqual(['Old nightly']),
    );
  });
});
