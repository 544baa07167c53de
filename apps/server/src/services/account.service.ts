import { randomUUID } from 'node:crypto';
import type {
  LoginRequest,
  LoginResponse,
  PasswordChange,
  ProfileUpdate,
  Registration,
  User,
} from '@aqa/plan';
import { canonicalEmail, SIGN_UP_CLOSED_MESSAGE } from '@aqa/plan';
import { type AttemptWindow, type LimitStore, memoryLimitStore } from '../auth/rate-limiter';
import { SignInLockout } from '../auth/sign-in-lockout';
import { hashPassword, prepareDummyHash, verifyAgainstDummy, verifyPassword } from '../auth/passwords';
import type { Clock } from '../clock';
import { isoAt } from '../clock';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '../errors';
import type { UserRepository } from '../repositories/user.repository';
import { normalizeEmail, toAccountUser, toPublicUser } from './account-user';
import type { AuthContext, SessionAuth, SessionService } from './session.service';

export const ACCOUNT_MESSAGES = {
  created: 'Account created successfully',
  duplicateEmail: 'An account with this email already exists',
  invalidCredentials: 'Invalid username or password',
  currentPasswordIncorrect: 'Current password is incorrect',
  tooManySignIns: (seconds: number) => `Too many sign-in attempts. Try again in ${seconds} seconds.`,
  tooManySignUps: (seconds: number) => `Too many sign-up attempts. Try again in ${seconds} seconds.`,
  tooManyPasswordChanges: (seconds: number) =>
    `Too many wrong current passwords. Try again in ${seconds} seconds.`,
  signUpClosed: SIGN_UP_CLOSED_MESSAGE,
} as const;

export interface AccountLimits {
  /** Sign-in attempts per client IP per minute (successful or not). */
  loginPerIpPerMinute: number;
  /**
   * Failed sign-ins per account and client address per 15 minutes; every address together gets four
   * times as many per account (SignInLockout, docs/adr/0018-safe-defaults-and-lockout.md).
   */
  loginFailuresPerAccount: number;
  /** Wrong current passwords per account per 15 minutes on the password change. */
  passwordChangeFailuresPerAccount: number;
  /** Registrations per client IP per minute. */
  registerPerIpPerMinute: number;
  /** Anyone may create an account (SIGN_UP); off, only the operator can (`npm run add-account`). */
  signUp: boolean;
}

const MINUTE_MS = 60_000;
const ACCOUNT_FAILURE_WINDOW_MS = 15 * MINUTE_MS;

/** Registration, sign-in, profile and password rules (docs/reference/01-authoring.md §3, §5; docs/design.md §3). */
export class AccountService {
  private readonly loginsPerIp: AttemptWindow;
  private readonly signInLockout: SignInLockout;
  private readonly passwordChangeFailures: AttemptWindow;
  private readonly registrationsPerIp: AttemptWindow;

  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionService,
    private readonly limits: AccountLimits,
    private readonly now: Clock,
    /** Where the limits count: this process, or the Redis replicas share (docs/adr/0020-server-replicas.md). */
    store: LimitStore = memoryLimitStore(now),
  ) {
    this.loginsPerIp = store.window('sign-in-ip', { limit: limits.loginPerIpPerMinute, windowMs: MINUTE_MS });
    this.signInLockout = new SignInLockout({
      failuresPerAddress: limits.loginFailuresPerAccount,
      windowMs: ACCOUNT_FAILURE_WINDOW_MS,
      now,
      store,
    });
    this.passwordChangeFailures = store.window('password-change', {
      limit: limits.passwordChangeFailuresPerAccount,
      windowMs: ACCOUNT_FAILURE_WINDOW_MS,
    });
    this.registrationsPerIp = store.window('sign-up-ip', {
      limit: limits.registerPerIpPerMinute,
      windowMs: MINUTE_MS,
    });
    prepareDummyHash();
  }

  /** POST /api/register: refused while sign-up is off (docs/design.md §11), then limited per client IP. */
  async register(input: Registration, clientIp: string): Promise<User> {
    this.assertSignUpOpen();
    const gate = await this.registrationsPerIp.consume(clientIp);
    if (!gate.allowed) {
      throw new RateLimitedError(
        'TOO_MANY_SIGN_UPS',
        ACCOUNT_MESSAGES.tooManySignUps(gate.retryAfterS),
        gate.retryAfterS,
      );
    }
    return this.createAccount(input);
  }

  /** Throws 403 SIGN_UP_CLOSED while sign-up is off; the route asks before it even reads the body. */
  assertSignUpOpen(): void {
    if (!this.limits.signUp) throw new ForbiddenError('SIGN_UP_CLOSED', ACCOUNT_MESSAGES.signUpClosed);
  }

  /**
   * Creates the account, whether sign-up is open or not (the operator's `npm run add-account` calls
   * it). The email is kept in NFKC (canonicalEmail) and the username is always its normalised key,
   * whatever the client sent, so an address that only looks different is the same account.
   */
  async createAccount(input: Registration): Promise<User> {
    const email = canonicalEmail(input.email);
    const emailNormalized = normalizeEmail(email);
    if (await this.users.findByEmail(emailNormalized)) {
      throw new ConflictError('EMAIL_TAKEN', ACCOUNT_MESSAGES.duplicateEmail, {
        hint: 'Sign in with this email instead.',
      });
    }
    const at = isoAt(this.now());
    const row = {
      id: randomUUID(),
      email,
      email_normalized: emailNormalized,
      username: emailNormalized,
      first_name: input.firstName.trim(),
      last_name: input.lastName.trim(),
      company: (input.company ?? '').trim(),
      role: (input.role ?? '').trim(),
      password_hash: await hashPassword(input.password),
      created_at: at,
      updated_at: at,
    };
    // The unique index decides races between two registrations of the same email.
    if (!(await this.users.insert(row))) {
      throw new ConflictError('EMAIL_TAKEN', ACCOUNT_MESSAGES.duplicateEmail, {
        hint: 'Sign in with this email instead.',
      });
    }
    return toPublicUser(toAccountUser(row));
  }

  /**
   * Signs in with the email as username (NFKC, case-insensitive). An unknown account and a wrong
   * password get the same answer after the same work, and the lock-out (SignInLockout) answers an email
   * that has an account and one that has none alike, attempt by attempt: the same status, words,
   * Retry-After and time (docs/adr/0018-safe-defaults-and-lockout.md).
   */
  async login(input: LoginRequest, clientIp: string): Promise<LoginResponse> {
    const ipGate = await this.loginsPerIp.consume(clientIp);
    if (!ipGate.allowed) throw this.tooManySignIns(ipGate.retryAfterS);
    const accountKey = normalizeEmail(input.username);
    const addressGate = await this.signInLockout.checkAddress(accountKey, clientIp);
    if (!addressGate.allowed) throw this.tooManySignIns(addressGate.retryAfterS);
    const accountGate = await this.signInLockout.checkAccount(accountKey);

    // The password is checked even when the account's budget is spent, so that answer takes as long
    // as any other, and the owner at a known address still gets in.
    const user = await this.users.findByEmail(accountKey);
    const passwordOk =
      user === undefined
        ? await verifyAgainstDummy(input.password)
        : await verifyPassword(user.password_hash, input.password);
    if (!accountGate.allowed) {
      // Spent: the same 429 for every attempt and every email, but the right password from home.
      const owner =
        user !== undefined && passwordOk && (await this.signInLockout.isKnown(accountKey, clientIp));
      if (!owner) throw this.tooManySignIns(accountGate.retryAfterS);
    } else if (user === undefined || !passwordOk) {
      await this.signInLockout.recordFailure(accountKey, clientIp);
      throw new UnauthorizedError('INVALID_CREDENTIALS', ACCOUNT_MESSAGES.invalidCredentials);
    }
    await this.signInLockout.recordSuccess(accountKey, clientIp);
    const session = await this.sessions.issue(user.id);
    return { token: session.token, user: toPublicUser(toAccountUser(user)), expires_at: session.expiresAt };
  }

  async updateProfile(auth: AuthContext, changes: ProfileUpdate): Promise<User> {
    const row = await this.users.update(auth.user.id, {
      first_name: changes.firstName,
      last_name: changes.lastName,
      company: changes.company,
      role: changes.role,
      updated_at: isoAt(this.now()),
    });
    if (row === undefined) throw new NotFoundError('USER_NOT_FOUND', 'This account no longer exists');
    return toPublicUser(toAccountUser(row));
  }

  /**
   * Changes the password and signs out every other session of the user (the current one stays), in
   * one transaction. Wrong current passwords are limited per account (docs/design.md §11), so a
   * stolen session cannot be used to guess the password.
   */
  async changePassword(auth: SessionAuth, change: PasswordChange): Promise<void> {
    const gate = await this.passwordChangeFailures.check(auth.user.id);
    if (!gate.allowed) {
      throw new RateLimitedError(
        'TOO_MANY_PASSWORD_ATTEMPTS',
        ACCOUNT_MESSAGES.tooManyPasswordChanges(gate.retryAfterS),
        gate.retryAfterS,
        { hint: 'Wait, then enter your current password again.' },
      );
    }
    const row = await this.users.findById(auth.user.id);
    if (row === undefined) throw new NotFoundError('USER_NOT_FOUND', 'This account no longer exists');
    if (!(await verifyPassword(row.password_hash, change.currentPassword))) {
      await this.passwordChangeFailures.record(auth.user.id);
      throw new ValidationError(
        [{ field: 'currentPassword', message: ACCOUNT_MESSAGES.currentPasswordIncorrect }],
        {
          code: 'CURRENT_PASSWORD_INCORRECT',
        },
      );
    }
    await this.users.setPasswordAndEndOtherSessions(
      row.id,
      await hashPassword(change.newPassword),
      auth.sessionId,
      isoAt(this.now()),
    );
  }

  private tooManySignIns(retryAfterS: number): RateLimitedError {
    return new RateLimitedError(
      'TOO_MANY_SIGN_INS',
      ACCOUNT_MESSAGES.tooManySignIns(retryAfterS),
      retryAfterS,
      {
        hint: 'Wait a moment, then check the email and password and try again.',
      },
    );
  }
}
