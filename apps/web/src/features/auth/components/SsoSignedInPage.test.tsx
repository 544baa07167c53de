import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, readSession } from '@/lib/session';
import { headersOf, json, mockFetch, renderWithRouter, TEST_USER } from '@/test/render';
import { SsoSignedInPage } from './SsoSignedInPage';

/** `/login/sso`: the session single sign-on hands over in the fragment (docs/adr/0033-single-sign-on.md). */
function renderAt(hash: string) {
  window.history.replaceState(null, '', `/login/sso${hash}`);
  return renderWithRouter(<SsoSignedInPage />, {
    path: '/login/sso',
    routes: [
      { path: '/schedules', element: <p>schedules screen</p> },
      { path: '/login', element: <p>sign-in screen</p> },
    ],
  });
}

beforeEach(() => clearSession());
afterEach(() => vi.unstubAllGlobals());

describe('the single sign-on hand-over', () => {
  it('saves the session with its account, wipes it from the address bar and opens the page the sign-in began from', async () => {
    const fetchMock = vi.fn(mockFetch({ 'GET /api/me': () => json({ user: TEST_USER }) }));
    vi.stubGlobal('fetch', fetchMock);
    const { router } = renderAt(
      '#token=tok-sso&expires_at=2999-01-01T00%3A00%3A00.000Z&return_to=%2Fschedules',
    );
    expect(await screen.findByText('schedules screen')).toBeInTheDocument();
    expect(headersOf(fetchMock.mock.calls[0]?.[1]).Authorization).toBe('Bearer tok-sso');
    expect(readSession()).toMatchObject({
      token: 'tok-sso',
      user: TEST_USER,
      expiresAt: '2999-01-01T00:00:00.000Z',
    });
    expect(window.location.hash).toBe('');
    expect(router.state.location.pathname).toBe('/schedules');
  });

  it('goes back to sign-in, saying why, when the session handed over does not work or is missing', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(mockFetch({ 'GET /api/me': () => json({ detail: 'Session expired' }, 401, 'Unauthorized') })),
    );
    const { router } = renderAt('#token=revoked');
    expect(await screen.findByText('sign-in screen')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?sso_error=expired');
    expect(readSession()).toBeNull();
  });
});
