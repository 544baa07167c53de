import { randomUUID } from 'node:crypto';
import type { DemoCredentials } from '@aqa/plan';
import { hashPassword, verifyPassword } from '../auth/passwords';
import type { Clock } from '../clock';
import { isoAt } from '../clock';
import type { UserRepository } from '../repositories/user.repository';
import { normalizeEmail } from './account-user';

/** The seeded account shown on the sign-in page (docs/design.md §1). Its only definition. */
export const DEMO_ACCOUNT = {
  email: 'demo@anybodyqa.dev',
  password: 'demo1234',
  firstName: 'Demo',
  lastName: 'User',
  company: 'AnybodyQA',
  role: 'QA Engineer',
} as const;

export type DemoAccountChange = 'created' | 'password-reset' | 'unchanged' | 'deleted' | 'absent';

export class DemoAccountService {
  constructor(
    private readonly users: UserRepository,
    private readonly enabled: boolean,
    private readonly now: Clock,
  ) {}

  /** GET /api/demo-credentials: the credentials when the demo account is on. */
  credentials(): DemoCredentials {
    return this.enabled
      ? { enabled: true, username: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password }
      : { enabled: false };
  }

  /**
   * Makes the database agree with DEMO_ACCOUNT at start-up. When on, the account exists and its
   * password is the published one (reset if someone changed it, since the sign-in page shows it);
   * when off, the account and its sessions are removed so the published password opens nothing.
   */
  async sync(): Promise<DemoAccountChange> {
    const emailNormalized = normalizeEmail(DEMO_ACCOUNT.email);
    if (!this.enabled) return (await this.users.deleteByEmail(emailNormalized)) ? 'deleted' : 'absent';

    const existing = await this.users.findByEmail(emailNormalized);
    const at = isoAt(this.now());
    if (existing === undefined) {
      await this.users.insert({
        id: randomUUID(),
        email: DEMO_ACCOUNT.email,
        email_normalized: emailNormalized,
        username: emailNormalized,
        first_name: DEMO_ACCOUNT.firstName,
        last_name: DEMO_ACCOUNT.lastName,
        company: DEMO_ACCOUNT.company,
        role: DEMO_ACCOUNT.role,
        password_hash: await hashPassword(DEMO_ACCOUNT.password),
        created_at: at,
        updated_at: at,
      });
      return 'created';
    }
    if (await verifyPassword(existing.password_hash, DEMO_ACCOUNT.password)) return 'unchanged';
    await this.users.update(existing.id, {
      password_hash: await hashPassword(DEMO_ACCOUNT.password),
      updated_at: at,
    });
    return 'password-reset';
  }
}
