import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { noticeTexts } from '@/test/notices';
import { readSession } from '@/lib/session';
import {
  bodyOf,
  createFetchMock,
  json,
  mockFetch,
  renderWithRouter,
  TEST_USER,
  type FetchMock,
} from '@/test/render';
import type {
  SpeechRecognitionErrorEventLike,
  SpeechRecognitionLike,
  SpeechRecognitionResultEventLike,
} from '../hooks/useVoiceCommand';
import { SignInPage } from './SignInPage';

const DEMO = { enabled: true, username: 'demo@anybodyqa.dev', password: 'demo1234' };

/** A Web Speech API stand-in that the test drives by hand. */
class FakeRecognition implements SpeechRecognitionLike {
  static instances: FakeRecognition[] = [];
  lang = '';
  continuous = true;
  interimResults = true;
  maxAlternatives = 5;
  onresult: ((event: SpeechRecognitionResultEventLike) => void) | null = null;
  onerror: ((event: SpeechRecognitionErrorEventLike) => void) | null = null;
  onend: (() => void) | null = null;
  start = vi.fn();
  stop = vi.fn();
  abort = vi.fn();
  constructor() {
    FakeRecognition.instances.push(this);
  }
  hear(transcript: string) {
    this.onresult?.({ results: [[{ transcript }]] });
    this.onend?.();
  }
  fail(error = 'network') {
    this.onerror?.({ error });
    this.onend?.();
  }
}

function latestRecognition(): FakeRecognition {
  const instance = FakeRecognition.instances.at(-1);
  if (!instance) throw new Error('no recognition was started');
  return instance;
}

function renderSignIn(language: 'en' | 'ko' = 'en') {
  return renderWithRouter(<SignInPage />, {
    path: '/login',
    language,
    routes: [
      { path: '/dashboard', element: <p>dashboard screen</p> },
      { path: '/register', element: <p>registration screen</p> },
    ],
  });
}

let fetchMock: FetchMock;

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  fetchMock = createFetchMock({
    'GET /api/demo-credentials': () => json(DEMO),
    'POST /api/login': (init) => {
      const body = bodyOf(init) as { username: string; password: string };
      return body.password === DEMO.password
        ? json({
            token: 'tok-9',
            user: { ...TEST_USER, username: body.username, email: body.username },
            expires_at: '2999-01-01T00:00:00.000Z',
          })
        : json({ detail: 'Invalid username or password' }, 401, 'Unauthorized');
    },
  });
  vi.stubGlobal('fetch', fetchMock);
  FakeRecognition.instances = [];
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(window, 'SpeechRecognition');
  Reflect.deleteProperty(window, 'webkitSpeechRecognition');
});

const setup = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

describe('sign-in screen', () => {
  it('shows the spec texts and the demo credentials', async () => {
    renderSignIn();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Test Smarter. Test Faster. Test by Anyone.',
    );
    expect(screen.getByTestId('happy-weekday')).toHaveTextContent(/^Happy \w+day!!$/);
    expect(screen.getByText('Welcome Back')).toBeInTheDocument();
    expect(screen.getByText('Sign in to continue your testing journey')).toBeInTheDocument();
    for (const text of [
      'Lightning Fast',
      'Execute tests in seconds',
      'Secure',
      'Enterprise-grade security',
      'Collaborative',
      'Team-friendly platform',
    ]) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
    expect(await screen.findByTestId('demo-username')).toHaveTextContent(DEMO.username);
    expect(screen.getByTestId('demo-password')).toHaveTextContent(DEMO.password);
    expect(screen.getByText("Don't have an account?").closest('p')).toHaveTextContent(
      "Don't have an account? Sign up",
    );
  });

  it('hides the demo block when the server has no demo account', async () => {
    fetchMock.mockImplementation(mockFetch({ 'GET /api/demo-credentials': () => json({ enabled: false }) }));
    renderSignIn();
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(screen.queryByTestId('demo-credentials')).not.toBeInTheDocument();
  });

  it.each([
    ['en', 'Sign-up is turned off on this server; ask its operator for an account.'],
    ['ko', '이 서버는 회원가입을 받지 않습니다. 계정은 서버 운영자에게 요청해 주세요.'],
  ] as const)('with sign-up off, hides the sign-up link and says why (%s)', async (language, text) => {
    fetchMock.mockImplementation(
      mockFetch({ 'GET /api/demo-credentials': () => json({ enabled: false, sign_up: false }) }),
    );
    renderSignIn(language);
    expect(await screen.findByTestId('sign-up-closed')).toHaveTextContent(text);
    expect(screen.queryByTestId('link-register')).not.toBeInTheDocument();
  });

  it('offers single sign-on beside the password form', async () => {
    fetchMock.mockImplementation(
      mockFetch({ 'GET /api/demo-credentials': () => json({ enabled: false, sso: { name: 'Corp Login' } }) }),
    );
    renderSignIn();
    const button = await screen.findByTestId('sso-sign-in');
    expect(button).toHaveTextContent('Sign in with Corp Login');
    expect(button).toHaveAttribute('href', '/api/auth/oidc/start?return_to=%2Fdashboard');
    expect(screen.getByText('or with a password')).toBeInTheDocument();
    expect(screen.getByTestId('login-username')).toBeInTheDocument();
  });

  it.each([
    ['en', 'No account here has your e-mail address. Ask the operator of this server for one.'],
    ['ko', '이 이메일 주소의 계정이 없습니다. 이 서버의 운영자에게 계정을 요청하세요.'],
  ] as const)('says why single sign-on did not sign the user in (%s)', async (language, text) => {
    fetchMock.mockImplementation(
      mockFetch({ 'GET /api/demo-credentials': () => json({ enabled: false, sso: { name: 'Corp Login' } }) }),
    );
    renderWithRouter(<SignInPage />, {
      path: '/login',
      initialEntry: '/login?sso_error=no_account',
      language,
    });
    expect(await screen.findByTestId('sso-error')).toHaveTextContent(text);
  });

  it('with password sign-in off, shows single sign-on alone', async () => {
    fetchMock.mockImplementation(
      mockFetch({
        'GET /api/demo-credentials': () =>
          json({ enabled: false, sign_up: false, sso: { name: 'Corp Login' }, password_sign_in: false }),
      }),
    );
    renderSignIn();
    expect(await screen.findByTestId('sso-only')).toHaveTextContent(
      'This server signs you in through Corp Login only.',
    );
    expect(screen.queryByTestId('login-username')).not.toBeInTheDocument();
    expect(screen.queryByTestId('link-register')).not.toBeInTheDocument();
    expect(screen.queryByTestId('sign-up-closed')).not.toBeInTheDocument();
  });

  it('waits 1 s showing "Signing in...", then says so when a field is empty', async () => {
    const user = setup();
    renderSignIn();
    await user.type(screen.getByTestId('login-username'), 'someone');
    await user.click(screen.getByTestId('login-submit'));
    expect(screen.getByTestId('login-submit')).toHaveTextContent('Signing in...');
    expect(screen.getByTestId('login-submit')).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(800));
    expect(noticeTexts()).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(noticeTexts()).toEqual(['Please enter username and password']);
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter username and password');
    expect(screen.getByTestId('login-submit')).toHaveTextContent('Sign in');
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/login')).toBe(false);
  });

  it('signs in after the 1 s wait, stores the session and opens the dashboard', async () => {
    const user = setup();
    renderSignIn();
    await user.type(screen.getByTestId('login-username'), DEMO.username);
    await user.type(screen.getByTestId('login-password'), DEMO.password);
    await user.click(screen.getByTestId('login-submit'));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/login')).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await screen.findByText('dashboard screen')).toBeInTheDocument();
    expect(readSession()).toMatchObject({ token: 'tok-9', user: { username: DEMO.username } });
    expect(localStorage.getItem('token')).toBe('tok-9');
  });

  it('opens the page the sign-in was asked for (a linked result in its workspace), never another site', async () => {
    const user = setup();
    const { router } = renderWithRouter(<SignInPage />, {
      path: '/login',
      routes: [
        { path: '/dashboard', element: <p>dashboard screen</p> },
        { path: '/functional-test-result/:id', element: <p>linked result</p> },
      ],
    });
    await act(() =>
      router.navigate('/login', { state: { from: '/functional-test-result/fc_1?workspace_id=ws_team' } }),
    );
    await user.type(screen.getByTestId('login-username'), DEMO.username);
    await user.type(screen.getByTestId('login-password'), DEMO.password);
    await user.click(screen.getByTestId('login-submit'));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await screen.findByText('linked result')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?workspace_id=ws_team');
  });

  it('goes to the dashboard when the page asked for is not a path of this app', async () => {
    const user = setup();
    const { router } = renderSignIn();
    await act(() => router.navigate('/login', { state: { from: '//evil.example.com/x' } }));
    await user.type(screen.getByTestId('login-username'), DEMO.username);
    await user.type(screen.getByTestId('login-password'), DEMO.password);
    await user.click(screen.getByTestId('login-submit'));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await screen.findByText('dashboard screen')).toBeInTheDocument();
  });

  it('shows the server message when the sign-in fails', async () => {
    const user = setup();
    renderSignIn();
    await user.type(screen.getByTestId('login-username'), DEMO.username);
    await user.type(screen.getByTestId('login-password'), 'wrong');
    await user.click(screen.getByTestId('login-submit'));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Invalid username or password');
    // Said once, in the form's own alert.
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid username or password');
    expect(noticeTexts()).toEqual([]);
    expect(readSession()).toBeNull();
  });

  it('switches to registration with "Sign up"', async () => {
    const user = setup();
    renderSignIn();
    await user.click(screen.getByRole('link', { name: 'Sign up' }));
    expect(await screen.findByText('registration screen')).toBeInTheDocument();
  });
});

describe('voice command', () => {
  beforeEach(() => {
    Object.assign(window, { webkitSpeechRecognition: FakeRecognition });
  });

  it('listens in en-US for one final utterance, then fills the demo credentials on "login"', async () => {
    const user = setup();
    renderSignIn();
    await screen.findByTestId('demo-username');
    await user.click(screen.getByTestId('voice-toggle'));
    const recognition = latestRecognition();
    expect(recognition).toMatchObject({ lang: 'en-US', continuous: false, interimResults: false });
    expect(recognition.start).toHaveBeenCalledOnce();
    expect(screen.getByTestId('voice-text')).toHaveValue('Listening...');
    expect(screen.getByTestId('voice-toggle')).toHaveTextContent('Stop');

    act(() => recognition.hear('Login with demo credentials'));
    expect(screen.getByTestId('voice-text')).toHaveValue('Login with demo credentials');
    expect(screen.getByTestId('voice-toggle')).toHaveTextContent('Listen');
    expect(await screen.findByDisplayValue(DEMO.username)).toBe(screen.getByTestId('login-username'));
    expect(screen.getByTestId('login-password')).toHaveValue(DEMO.password);
  });

  it('accepts "sign in" in any case, and ignores other phrases', async () => {
    const user = setup();
    renderSignIn();
    await screen.findByTestId('demo-username');
    await user.click(screen.getByTestId('voice-toggle'));
    act(() => latestRecognition().hear('what is the weather'));
    expect(screen.getByTestId('voice-text')).toHaveValue('what is the weather');
    expect(screen.getByTestId('login-username')).toHaveValue('');

    await user.click(screen.getByTestId('voice-toggle'));
    act(() => latestRecognition().hear('please SIGN IN now'));
    expect(await screen.findByDisplayValue(DEMO.username)).toBeInTheDocument();
  });

  it('shows the failure text on a recognition error and returns to idle', async () => {
    const user = setup();
    renderSignIn();
    await user.click(screen.getByTestId('voice-toggle'));
    act(() => latestRecognition().fail('no-speech'));
    expect(screen.getByTestId('voice-text')).toHaveValue('Voice recognition failed. Please try again.');
    expect(screen.getByTestId('voice-toggle')).toHaveTextContent('Listen');
  });

  it('Stop returns to idle, clears the text, and ignores the late events of the stopped recogniser', async () => {
    const user = setup();
    renderSignIn();
    await user.click(screen.getByTestId('voice-toggle'));
    const recognition = latestRecognition();
    await user.click(screen.getByTestId('voice-toggle'));
    expect(recognition.abort).toHaveBeenCalled();
    expect(screen.getByTestId('voice-text')).toHaveValue('');
    expect(screen.getByTestId('voice-toggle')).toHaveTextContent('Listen');
    act(() => recognition.fail('aborted'));
    expect(screen.getByTestId('voice-text')).toHaveValue('');
  });

  it('says so when the browser has no speech recognition', async () => {
    Reflect.deleteProperty(window, 'webkitSpeechRecognition');
    const user = setup();
    renderSignIn();
    await user.click(screen.getByTestId('voice-toggle'));
    expect(noticeTexts()).toEqual(['Speech recognition is not supported in this browser.']);
    expect(within(screen.getByTestId('voice-command')).getByTestId('voice-toggle')).toHaveTextContent(
      'Listen',
    );
  });
});
