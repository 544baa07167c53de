import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { BUILT_SCREENS } from '@/lib/screens';
import {
  createFetchMock,
  headersOf,
  json,
  mockFetch,
  renderApp,
  signInAs,
  TEST_USER,
  type FetchMock,
} from '@/test/render';

describe('routes', () => {
  let fetchMock: FetchMock;

  beforeEach(() => {
    fetchMock = createFetchMock({
      'GET /api/me': () => json({ user: TEST_USER }),
      'GET /api/demo-credentials': () => json({ enabled: false }),
      'POST /api/logout': () => new Response(null, { status: 204 }),
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the sign-in screen for a protected path while signed out', async () => {
    const { router } = renderApp('/dashboard');
    expect(await screen.findByText('Welcome Back')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('remembers the page a signed-out visitor asked for, with its query, but not the page left by Logout', async () => {
    const first = renderApp('/profile?workspace_id=ws_team');
    await screen.findByText('Welcome Back');
    expect(first.router.state.location.state).toEqual({ from: '/profile?workspace_id=ws_team' });
    first.unmount();

    signInAs();
    const user = userEvent.setup();
    const { router } = renderApp('/profile');
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    await screen.findByText('Welcome Back');
    expect(router.state.location.pathname).toBe('/login');
    expect((router.state.location.state as { from?: string } | null)?.from).toBeUndefined();
  });

  it('sends signed-out visitors of unknown paths and of / to sign-in', async () => {
    const { router } = renderApp('/no/such/page');
    await screen.findByText('Welcome Back');
    expect(router.state.location.pathname).toBe('/login');
  });

  it('redirects / to /dashboard when signed in', async () => {
    signInAs();
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Welcome to Anybody can do QA' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('redirects unknown paths, and screens not built yet, to /dashboard', async () => {
    signInAs();
    // Every sidebar screen may be built by now: one is shown as not built for the test.
    BUILT_SCREENS.delete('messages');
    onTestFinished(() => void BUILT_SCREENS.add('messages'));
    const { router } = renderApp('/messages');
    await screen.findByRole('heading', { name: 'Welcome to Anybody can do QA' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('sends a signed-in user away from /login and /register', async () => {
    signInAs();
    const { router } = renderApp('/register');
    await screen.findByTestId('home-dashboard');
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('greets the user by name, shows the PLANS breadcrumb, and checks the token with GET /api/me', async () => {
    signInAs();
    renderApp('/dashboard');
    // The name, not the e-mail the username is (issue 24).
    expect(await screen.findByTestId('header-greeting')).toHaveTextContent(
      `Welcome, ${TEST_USER.firstName}!`,
    );
    expect(screen.getByTestId('breadcrumbs')).toHaveTextContent('PLANS');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/me', expect.anything()));
    const init = fetchMock.mock.calls.find(([url]) => url === '/api/me')?.[1];
    expect(headersOf(init).Authorization).toBe('Bearer test-token');
  });

  it('opens a new screen at its top, not where the screen before was scrolled to (issue 24)', async () => {
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    signInAs();
    const { router } = renderApp('/dashboard');
    await screen.findByTestId('home-dashboard');
    scrollTo.mockClear();
    await act(() => router.navigate('/settings'));
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 0));
    // The same screen with another query (an editor writing ?planId=) keeps its place; Back is the browser's.
    scrollTo.mockClear();
    await act(() => router.navigate('/settings?tab=2', { replace: true }));
    await act(() => router.navigate(-1));
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('shows sidebar items of screens that do not exist yet as disabled "Coming soon"', async () => {
    signInAs();
    BUILT_SCREENS.delete('feedback');
    onTestFinished(() => void BUILT_SCREENS.add('feedback'));
    renderApp('/dashboard');
    await screen.findByTestId('home-dashboard');
    expect(screen.getByTestId('nav-feedback')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByTestId('nav-feedback')).toHaveAccessibleDescription('Coming soon');
    expect(screen.getByTestId('nav-messages')).toHaveAttribute('href', '/messages');
    expect(screen.getByTestId('nav-plans')).toHaveAttribute('href', '/dashboard');
    expect(screen.getByTestId('nav-functional-ui-test')).toHaveAttribute(
      'href',
      '/functional-test/ui-url-input',
    );
    expect(screen.getByTestId('nav-profile')).toHaveAttribute('href', '/profile');
    expect(screen.getByTestId('nav-setting')).toHaveAttribute('href', '/settings');
    expect(screen.getByTestId('nav-performance-input-urls')).toHaveAttribute(
      'href',
      '/create-test/url-input',
    );
    expect(screen.getByTestId('quick-performance-url')).toHaveAttribute('href', '/create-test/url-input');
    expect(screen.getByTestId('nav-performance-upload-script')).toHaveAttribute(
      'href',
      '/create-test/script-input',
    );
    expect(screen.getByTestId('quick-performance-script')).toHaveAttribute(
      'href',
      '/create-test/script-input',
    );
    expect(screen.getByTestId('view-all-results')).toHaveAttribute('href', '/previous-results');
  });

  it('navigates through the sidebar and shows each screen breadcrumbs', async () => {
    signInAs();
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard');
    await user.click(await screen.findByTestId('nav-setting'));
    expect(await screen.findByTestId('settings-page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings');
    expect(screen.getByTestId('breadcrumbs')).toHaveTextContent('ACCOUNT>Setting');
  });

  it('logs out: clears the session, revokes the token, and goes to /login', async () => {
    signInAs();
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Welcome Back')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    const logout = fetchMock.mock.calls.find(([url]) => url === '/api/logout');
    expect(headersOf(logout?.[1]).Authorization).toBe('Bearer test-token');
  });

  it('a 401 on the token check ends the session and shows sign-in with a notice', async () => {
    fetchMock.mockImplementation(
      mockFetch({
        'GET /api/me': () => json({ detail: 'Not signed in' }, 401, 'Unauthorized'),
        'GET /api/demo-credentials': () => json({ enabled: false }),
      }),
    );
    signInAs();
    const { router } = renderApp('/dashboard');
    expect(await screen.findByText('Welcome Back')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByTestId('session-expired')).toHaveTextContent('Your session has expired');
  });

  it('a stored session past its expiry goes straight to sign-in', async () => {
    localStorage.setItem('token', 'old');
    localStorage.setItem('user', JSON.stringify({ username: 'a@b.co', email: 'a@b.co' }));
    localStorage.setItem('token_expires_at', new Date(Date.now() - 60_000).toISOString());
    const { router } = renderApp('/profile');
    await screen.findByText('Welcome Back');
    expect(router.state.location.pathname).toBe('/login');
  });
});
