import type { LimitStore } from '../auth/rate-limiter';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { SessionRepository } from '../repositories/session.repository';
import { ApiTokenRepository } from '../repositories/token.repository';
import { UserRepository } from '../repositories/user.repository';
import { AccountService } from './account.service';
import { SessionService } from './session.service';
import { ApiTokenService } from './token.service';

/**
 * The account services as the configuration sets them up: one place for the server (app.ts) and
 * the operator's `npm run add-account`, so both apply the same rules and limits.
 */
export function createAccountServices(db: Db, config: Config, now: Clock, limitStore?: LimitStore) {
  const users = new UserRepository(db);
  const sessions = new SessionService(
    new SessionRepository(db),
    users,
    config.sessionTtlHours * 3600_000,
    now,
  );
  const accounts = new AccountService(
    users,
    sessions,
    {
      loginPerIpPerMinute: config.loginRateLimitPerIp,
      loginFailuresPerAccount: config.loginFailuresPerAccount,
      passwordChangeFailuresPerAccount: config.passwordChangeFailuresPerAccount,
      registerPerIpPerMinute: config.registerRateLimitPerIp,
      signUp: config.signUp,
    },
    now,
    limitStore,
  );
  const apiTokens = new ApiTokenService(new ApiTokenRepository(db), users, now);
  return { users, sessions, accounts, apiTokens };
}
