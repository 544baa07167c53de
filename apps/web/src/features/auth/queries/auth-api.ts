import { contract, type CallAnswer } from '@aqa/contract';
import type { DemoCredentials, LoginRequest, LoginResponse, RegistrationInput, User } from '@aqa/plan';
import { call } from '@/lib/api';

/** POST /api/login — a public call: a 401 here means wrong credentials, not an expired session. */
export function loginRequest(credentials: LoginRequest): Promise<LoginResponse> {
  return call(contract.account.login, { body: credentials }, { auth: false });
}

export type RegisterResponse = CallAnswer<typeof contract.account.register>;

/** POST /api/register with the registration record plus `username` equal to `email` (docs/reference/01-authoring.md §3). */
export function registerRequest(input: RegistrationInput): Promise<RegisterResponse> {
  return call(contract.account.register, { body: { ...input, username: input.email } }, { auth: false });
}

/** POST /api/logout with the token being revoked; survives the navigation that follows. */
export function logoutRequest(token: string): Promise<void> {
  return call(contract.account.logout, {}, { auth: false, token, keepalive: true });
}

/**
 * GET /api/demo-credentials: the seeded demo account, when the server shows one, and whether sign-up
 * is open (`sign_up`; a server that does not say is open, as before SIGN_UP existed).
 */
export async function fetchDemoCredentials(signal: AbortSignal): Promise<DemoCredentials> {
  // A server without the call (an empty answer) shows no demo account and keeps sign-up open.
  const answer: Partial<DemoCredentials> | undefined = await call(
    contract.system.demoCredentials,
    {},
    { auth: false, signal },
  );
  const sign_up = answer?.sign_up !== false;
  // Single sign-on's button, and whether passwords sign in (docs/adr/0033-single-sign-on.md).
  const sso = {
    ...(answer?.sso === undefined ? {} : { sso: answer.sso }),
    ...(answer?.password_sign_in === false ? { password_sign_in: false } : {}),
  };
  if (answer?.enabled && typeof answer.username === 'string' && typeof answer.password === 'string') {
    return { enabled: true, username: answer.username, password: answer.password, sign_up, ...sso };
  }
  return { enabled: false, sign_up, ...sso };
}

/** Sign-up is closed only when the server said so; while it is unknown the link stays. */
export function signUpClosed(info: { status: string; data?: DemoCredentials | null }): boolean {
  return info.status === 'success' && info.data?.sign_up === false;
}

/** GET /api/me — a protected call: a revoked or expired token answers 401, which ends the session. */
export async function fetchCurrentUser(signal: AbortSignal): Promise<User> {
  const answer = await call(contract.account.me, {}, { signal });
  return answer.user;
}

/** GET /api/me with the session single sign-on handed over, before it is saved (docs/adr/0033-single-sign-on.md). */
export async function fetchUserWith(token: string, signal: AbortSignal): Promise<User> {
  const answer = await call(contract.account.me, {}, { auth: false, token, signal });
  return answer.user;
}

/** Where the sign-in button sends the browser: the server starts the provider's sign-in. */
export function ssoStartUrl(returnTo = '/dashboard'): string {
  return `/api/auth/oidc/start?${new URLSearchParams({ return_to: returnTo }).toString()}`;
}
