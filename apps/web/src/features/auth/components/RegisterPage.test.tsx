import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { noticeTexts } from '@/test/notices';
import {
  bodyOf,
  createFetchMock,
  json,
  mockFetch,
  renderApp,
  renderWithRouter,
  type FetchMock,
} from '@/test/render';
import { RegisterPage } from './RegisterPage';

let fetchMock: FetchMock;

function renderRegister(language: 'en' | 'ko' = 'en') {
  return renderWithRouter(<RegisterPage />, {
    path: '/register',
    language,
    routes: [{ path: '/login', element: <p>sign-in screen</p> }],
  });
}

const setup = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

/** The requests that change something; the screen also reads GET /api/demo-credentials on its own. */
const sent = () => fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET');

async function fillValid(user: ReturnType<typeof setup>) {
  await user.type(screen.getByTestId('register-first-name'), 'Ada');
  await user.type(screen.getByTestId('register-last-name'), 'Lovelace');
  await user.type(screen.getByTestId('register-email'), 'ada@example.com');
  await user.type(screen.getByTestId('register-password'), 'secret1');
  await user.type(screen.getByTestId('register-confirm-password'), 'secret1');
  await user.type(screen.getByTestId('register-company'), 'Analytical Engines');
  await user.type(screen.getByTestId('register-role'), 'QA Engineer');
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  fetchMock = createFetchMock({
    'GET /api/demo-credentials': () => json({ enabled: false, sign_up: true }),
    'POST /api/register': () => json({ message: 'Account created' }, 201, 'Created'),
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('registration screen', () => {
  it.each([
    ['en', 'Sign-up is turned off on this server; ask its operator for an account.'],
    ['ko', '이 서버는 회원가입을 받지 않습니다. 계정은 서버 운영자에게 요청해 주세요.'],
  ] as const)(
    'with sign-up off on the server, says so (%s) instead of showing the form',
    async (language, text) => {
      fetchMock.mockImplementation(
        mockFetch({ 'GET /api/demo-credentials': () => json({ enabled: false, sign_up: false }) }),
      );
      renderRegister(language);
      expect(await screen.findByTestId('sign-up-closed')).toHaveTextContent(text);
      expect(screen.queryByTestId('register-submit')).not.toBeInTheDocument();
      expect(screen.getByTestId('link-login')).toBeInTheDocument();
    },
  );

  it('names a control character in a name as the shared rule does, and sends nothing', async () => {
    const user = setup();
    renderRegister();
    await fillValid(user);
    // A keyboard cannot type a control character; a paste or an autofill can carry one.
    fireEvent.change(screen.getByTestId('register-last-name'), { target: { value: 'Love\u0000lace' } });
    await user.click(screen.getByTestId('register-submit'));
    expect(screen.getByTestId('error-lastName')).toHaveTextContent(
      'This field cannot contain control characters or line breaks',
    );
    expect(sent()).toEqual([]);
  });

  it('shows the sections, required marks, the email note and the role placeholder', () => {
    renderRegister();
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    for (const section of ['Personal Information', 'Account Information', 'Company Information']) {
      expect(screen.getByRole('group', { name: section })).toBeInTheDocument();
    }
    expect(screen.getByLabelText(/^Email Address \(Username\)/)).toBe(screen.getByTestId('register-email'));
    expect(screen.getByTestId('register-email')).toHaveAccessibleDescription(
      'You will use this email address as your username to sign in.',
    );
    expect(screen.getByTestId('register-role')).toHaveAttribute(
      'placeholder',
      'e.g. QA Engineer, Developer, DevOps',
    );
    expect(screen.getByTestId('register-first-name')).toBeRequired();
    expect(screen.getByTestId('register-company')).not.toBeRequired();
  });

  it('shows every error at once under its field, and sends nothing', async () => {
    const user = setup();
    renderRegister();
    await user.click(screen.getByTestId('register-submit'));
    expect(screen.getByTestId('error-firstName')).toHaveTextContent('First name is required');
    expect(screen.getByTestId('error-lastName')).toHaveTextContent('Last name is required');
    expect(screen.getByTestId('error-email')).toHaveTextContent('Email is required');
    expect(screen.getByTestId('error-password')).toHaveTextContent('Password is required');
    expect(screen.queryByTestId('error-confirmPassword')).not.toBeInTheDocument();
    const email = screen.getByTestId('register-email');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(expect.stringContaining('Email is required'));
    expect(screen.getByTestId('register-first-name')).toHaveFocus();
    expect(screen.getByTestId('register-submit')).toHaveTextContent('Create Account');
    expect(sent()).toEqual([]);
  });

  it('checks shape, length and match, and clears a field error when that field is edited', async () => {
    const user = setup();
    renderRegister();
    await user.type(screen.getByTestId('register-first-name'), '   ');
    await user.type(screen.getByTestId('register-email'), 'not-an-email');
    await user.type(screen.getByTestId('register-password'), '12345');
    await user.type(screen.getByTestId('register-confirm-password'), '54321');
    await user.click(screen.getByTestId('register-submit'));
    expect(screen.getByTestId('error-firstName')).toHaveTextContent('First name is required');
    expect(screen.getByTestId('error-email')).toHaveTextContent('Please enter a valid email');
    expect(screen.getByTestId('error-password')).toHaveTextContent('Password must be at least 6 characters');
    expect(screen.getByTestId('error-confirmPassword')).toHaveTextContent('Passwords do not match');

    await user.type(screen.getByTestId('register-email'), 'x');
    expect(screen.queryByTestId('error-email')).not.toBeInTheDocument();
    expect(screen.getByTestId('register-email')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByTestId('error-password')).toBeInTheDocument();
  });

  it('shows the errors in Korean', async () => {
    const user = setup();
    renderRegister('ko');
    await user.click(screen.getByTestId('register-submit'));
    expect(screen.getByTestId('error-email')).toHaveTextContent('이메일을 입력해 주세요');
    expect(screen.getByTestId('error-firstName')).toHaveTextContent('이름을 입력해 주세요');
  });

  it('waits 1 s as "Creating account...", registers with username = email, says so and returns to sign-in', async () => {
    const user = setup();
    renderRegister();
    await fillValid(user);
    await user.click(screen.getByTestId('register-submit'));
    expect(screen.getByTestId('register-submit')).toHaveTextContent('Creating account...');
    expect(screen.getByTestId('register-submit')).toBeDisabled();
    expect(sent()).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await screen.findByText('sign-in screen')).toBeInTheDocument();
    // The notice outlives the registration screen: it is read on the sign-in screen.
    expect(noticeTexts()).toEqual(['Account created successfully! Please sign in.']);
    expect(screen.getByRole('status')).toHaveTextContent('Account created successfully! Please sign in.');
    const [url, init] = sent()[0]!;
    expect(url).toBe('/api/register');
    expect(bodyOf(init)).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      username: 'ada@example.com',
      password: 'secret1',
      confirmPassword: 'secret1',
      company: 'Analytical Engines',
      role: 'QA Engineer',
    });
  });

  it(
    'carries the e-mail to the sign-in screen, where only the password is left to type (issue 24)',
    { timeout: 20_000 },
    async () => {
      const user = setup();
      const { router } = renderApp('/register');
      await screen.findByTestId('register-submit');
      await fillValid(user);
      await user.click(screen.getByTestId('register-submit'));
      await act(() => vi.advanceTimersByTimeAsync(1000));
      await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'));
      expect(await screen.findByTestId('login-username')).toHaveValue('ada@example.com');
      expect(screen.getByTestId('login-password')).toHaveFocus();
    },
  );

  it('shows the server message when the email is taken', async () => {
    fetchMock.mockImplementation(
      mockFetch({
        'POST /api/register': () =>
          json({ detail: 'An account with this email already exists' }, 409, 'Conflict'),
      }),
    );
    const user = setup();
    renderRegister();
    await fillValid(user);
    await user.click(screen.getByTestId('register-submit'));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    // Said once, in the form's own alert.
    expect(noticeTexts()).toEqual([]);
    expect(screen.getByRole('alert')).toHaveTextContent('An account with this email already exists');
    expect(screen.getByTestId('register-error')).toHaveTextContent(
      'An account with this email already exists',
    );
    expect(screen.getByTestId('register-submit')).toHaveTextContent('Create Account');
  });

  it('shows the field errors of a 400 answer under their fields', async () => {
    fetchMock.mockImplementation(
      mockFetch({
        'POST /api/register': () =>
          json(
            {
              detail: 'Invalid registration',
              errors: [{ field: 'email', message: 'Please enter a valid email' }],
            },
            400,
            'Bad Request',
          ),
      }),
    );
    const user = setup();
    renderRegister();
    await fillValid(user);
    await user.click(screen.getByTestId('register-submit'));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByTestId('register-error')).toHaveTextContent('Bad request. Please check your input.');
    expect(screen.getByTestId('error-email')).toHaveTextContent('Please enter a valid email');
  });
});
