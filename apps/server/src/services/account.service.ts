import { randomUUID } from 'node:crypto';
import type {
  LoginRequest,
  LoginResponse,
  PasswordChange,
  ProfileUpdate,
  Registration,
  User,
} from '@aqa/plan';
import { SlidingWindowLimiter } from '../auth/rate-limiter';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../auth/passwords';
import type { Clock } from '../clock';
import { isoAt } from '../clock';
import {
  ConflictError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '../errors';
import type { UserRepository } from '../repositories/user.repository';
import { normalizeEmail, toAccountUser, toPublicUser } from './account-user';
import type { AuthContext, SessionService } from './session.service';

export const ACCOUNT_MESSAGES = {
  created: 'Account created successfully',
  duplicateEmail: 'An account with this email already exists',
  invalidCredentials: 'Invalid username or password',
  currentPasswordIncorrect: 'Current password is incorrect',
  tooManySignIns: (seconds: number) => `Too many sign-in attempts. Try again in ${seconds} seconds.`,
  tooManySignUps: (seconds: number) => `Too many sign-up attempts. Try again in ${seconds} seconds.`,
} as const;

export interface AccountLimits {
  /** Sign-in attempts per client IP per minute (successful or not). */
  loginPerIpPerMinute: number;
  /** Failed sign-ins per account per 15 minutes; the account is then refused until one ages out. */
  loginFailuresPerAccount: number;
  /** Registrations per client IP per minute. */
  registerPerIpPerMinute: number;
}

const MINUTE_MS = 60_000;
const ACCOUNT_FAILURE_WINDOW_MS = 15 * MINUTE_MS;

/** Registration, sign-in, profile and password rules (docs/reference/01-authoring.md §3, §5; docs/design.md §3). */
export class AccountService {
  private readonly loginsPerIp: SlidingWindowLimiter;
  private readonly failuresPerAccount: SlidingWindowLimiter;
  private readonly registrationsPerIp: SlidingWindowLimiter;

  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionService,
    limits: AccountLimits,
    private readonly now: Clock,
  ) {
    this.loginsPerIp = new SlidingWindowLimiter({
      limit: limits.loginPerIpPerMinute,
      windowMs: MINUTE_MS,
      now,
    });
    this.failuresPerAccount = new SlidingWindowLimiter({
      limit: limits.loginFailuresPerAccount,
      windowMs: ACCOUNT_FAILURE_WINDOW_MS,
      now,
    });
    this.registrationsPerIp = new SlidingWindowLimiter({
      limit: limits.registerPerIpPerMinute,
      windowMs: MINUTE_MS,
      now,
    });
  }

  /** Creates the account. The username is always the normalised email, whatever the client sent. */
  async register(input: Registration, clientIp: string): Promise<User> {
    const gate = this.registrationsPerIp.consume(clientIp);
    if (!gate.allowed) {
      throw new RateLimitedError(
        'TOO_MANY_SIGN_UPS',
        ACCOUNT_MESSAGES.tooManySignUps(gate.retryAfterS),
        gate.retryAfterS,
      );
    }
    const email = input.email.trim();
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
   * Signs in with the email as username (case-insensitive). Unknown account and wrong password get
   * the same answer after the same work, and both count towards the account's failure limit.
   */
  async login(input: LoginRequest, clientIp: string): Promise<LoginResponse> {
    const ipGate = this.loginsPerIp.consume(clientIp);
    if (!ipGate.allowed) throw this.tooManySignIns(ipGate.retryAfterS);
    const accountKey = normalizeEmail(input.username);
    const accountGate = this.failuresPerAccount.check(accountKey);
    if (!accountGate.allowed) throw this.tooManySignIns(accountGate.retryAfterS);

    const user = await this.users.findByEmail(accountKey);
    const passwordOk =
      user === undefined
        ? await verifyAgainstDummy(input.password)
        : await verifyPassword(user.password_hash, input.password);
    if (user === undefined || !passwordOk) {
      this.failuresPerAccount.record(accountKey);
      throw new UnauthorizedError('INVALID_CREDENTIALS', ACCOUNT_MESSAGES.invalidCredentials);
    }
    this.failuresPerAccount.reset(accountKey);
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

  /** Changes the password and signs out every other session of the user (the current one stays). */
  async changePassword(auth: AuthContext, change: PasswordChange): Promise<void> {
    const row = await this.users.findById(auth.user.id);
    if (row === undefined) throw new NotFoundError('USER_NOT_FOUND', 'This account no longer exists');
    if (!(await verifyPassword(row.password_hash, change.currentPassword))) {
      throw new ValidationError(
        [{ field: 'currentPassword', message: ACCOUNT_MESSAGES.currentPasswordIncorrect }],
        {
          code: 'CURRENT_PASSWORD_INCORRECT',
        },
      );
    }
    await this.users.update(row.id, {
      password_hash: await hashPassword(change.newPassword),
      updated_at: isoAt(this.now()),
    });
    await this.sessions.revokeOthers(row.id, auth.sessionId);
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
