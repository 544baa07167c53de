import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readSession } from '@/lib/session';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

let fetchMock: FetchMock;

beforeEach(() => {
  fetchMock = createFetchMock({
    'GET /api/me': () => json({ user: TEST_USER }),
    'PUT /api/me': (init) => json({ user: { ...TEST_USER, ...(bodyOf(init) as object) } }),
    'POST /api/me/password': (init) =>
      (bodyOf(init) as { currentPassword: string }).currentPassword === 'right-one'
        ? new Response(null, { status: 204 })
        : json({ detail: 'Current password is incorrect' }, 400, 'Bad Request'),
  });
  vi.stubGlobal('fetch', fetchMock);
  signInAs();
});
afterEach(() => vi.unstubAllGlobals());

describe('profile', () => {
  it('saves the name, company and role with PUT /api/me and updates the stored user', async () => {
    const user = userEvent.setup();
    renderApp('/profile');
    const role = await screen.findByTestId('profile-role');
    expect(screen.getByTestId('profile-first-name')).toHaveValue('Ada');
    expect(screen.getByTestId('profile-save')).toBeDisabled();
    await user.clear(role);
    await user.type(role, 'Performance Engineer');
    await user.click(screen.getByTestId('profile-save'));
    expect(await screen.findByTestId('profile-message')).toHaveTextContent('Your profile has been updated.');
    const put = fetchMock.mock.calls.find(([url, init]) => url === '/api/me' && init?.method === 'PUT');
    expect(bodyOf(put?.[1])).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: 'Analytical Engines',
      role: 'Performance Engineer',
    });
    expect(readSession()?.user.role).toBe('Performance Engineer');
  });

  it('requires first and last name', async () => {
    const user = userEvent.setup();
    renderApp('/profile');
    await user.clear(await screen.findByTestId('profile-last-name'));
    await user.click(screen.getByTestId('profile-save'));
    expect(screen.getByTestId('profile-last-name-error')).toHaveTextContent('Last name is required');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });

  it('changes the password, and shows the server message under the current password when it is wrong', async () => {
    const user = userEvent.setup();
    renderApp('/profile');
    await user.click(await screen.findByTestId('password-submit'));
    expect(screen.getByTestId('password-current-error')).toHaveTextContent('Current password is required');
    expect(screen.getByTestId('password-new-error')).toHaveTextContent('Password is required');

    await user.type(screen.getByTestId('password-current'), 'wrong-one');
    await user.type(screen.getByTestId('password-new'), 'brand-new-1');
    await user.type(screen.getByTestId('password-confirm'), 'brand-new-1');
    await user.click(screen.getByTestId('password-submit'));
    expect(await screen.findByTestId('password-current-error')).toHaveTextContent(
      'Current password is incorrect',
    );
    expect(screen.getByTestId('password-message')).toHaveTextContent('Current password is incorrect');

    await user.clear(screen.getByTestId('password-current'));
    await user.type(screen.getByTestId('password-current'), 'right-one');
    await user.click(screen.getByTestId('password-submit'));
    expect(await screen.findByText('Your password has been changed.')).toBeInTheDocument();
    expect(screen.getByTestId('password-new')).toHaveValue('');
  });
});
