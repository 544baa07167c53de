import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type {
  AttemptWindow,
  KnownAddresses,
  LimitDecision,
  LimitStore,
  WindowSettings,
} from '../auth/rate-limiter';
import type { Clock } from '../clock';

const PREFIX = 'aqa:limits:';
/** The key of SignInLockout's address hashes, made by the first replica and read by the others. */
const SECRET_KEY = `${PREFIX}address-secret`;
/** Known addresses of an account not signed in from for this long are forgotten. */
const KNOWN_TTL_MS = 90 * 24 * 3600_000;

/*
 * The sliding-window log of SlidingWindowLimiter as one atomic script on a sorted set (score and member:
 * the attempt's time, plus a random tail so two attempts in one millisecond both count). ARGV: mode
 * (check | record | consume), now, windowMs, limit, member. Answers { allowed 0/1, ms until one more
 * attempt is allowed }. As in memory: attempts at or before now − window have left it, and a key keeps
 * at most `limit` attempts.
 */
const WINDOW_SCRIPT = `
local key = KEYS[1]
local mode = ARGV[1]
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local n = redis.call('ZCARD', key)
local allowed = 1
local retry = 0
if mode ~= 'record' and n >= limit then
  allowed = 0
  local oldest = redis.call('ZRANGE', key, n - limit, n - limit, 'WITHSCORES')
  retry = tonumber(oldest[2]) + window - now
end
if mode == 'record' or (mode == 'consume' and allowed == 1) then
  redis.call('ZADD', key, now, ARGV[5])
  redis.call('ZREMRANGEBYRANK', key, 0, -(limit + 1))
  redis.call('PEXPIRE', key, window)
end
return { allowed, retry }
`;

/** Keys name no email or address in Redis: only their hash. */
function hashed(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

class RedisWindow implements AttemptWindow {
  constructor(
    private readonly redis: Redis,
    private readonly name: string,
    private readonly settings: WindowSettings,
    private readonly now: Clock,
  ) {}

  check(key: string): Promise<LimitDecision> {
    return this.run('check', key);
  }

  async record(key: string): Promise<void> {
    await this.run('record', key);
  }

  consume(key: string): Promise<LimitDecision> {
    return this.run('consume', key);
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.keyOf(key));
  }

  private keyOf(key: string): string {
    return `${PREFIX}${this.name}:${hashed(key)}`;
  }

  private async run(mode: 'check' | 'record' | 'consume', key: string): Promise<LimitDecision> {
    const now = this.now();
    const member = `${now}:${randomBytes(6).toString('base64url')}`;
    const [allowed, retryMs] = (await this.redis.eval(
      WINDOW_SCRIPT,
      1,
      this.keyOf(key),
      mode,
      now,
      this.settings.windowMs,
      this.settings.limit,
      member,
    )) as [number, number];
    if (allowed === 1) return { allowed: true, retryAfterS: 0 };
    return { allowed: false, retryAfterS: Math.max(1, Math.ceil(retryMs / 1000)) };
  }
}

/** An account's known address hashes as a list, oldest first, trimmed to the newest `max`. */
class RedisKnownAddresses implements KnownAddresses {
  constructor(private readonly redis: Redis) {}

  async isKnown(account: string, place: string): Promise<boolean> {
    return (await this.redis.lpos(this.keyOf(account), place)) !== null;
  }

  async remember(account: string, place: string, max: number): Promise<void> {
    const key = this.keyOf(account);
    await this.redis
      .multi()
      .lrem(key, 0, place)
      .rpush(key, place)
      .ltrim(key, -max, -1)
      .pexpire(key, KNOWN_TTL_MS)
      .exec();
  }

  private keyOf(account: string): string {
    return `${PREFIX}known:${hashed(account)}`;
  }
}

/**
 * The sign-in and sign-up limits in the Redis the replicas share (docs/adr/0020-server-replicas.md):
 * two replicas enforce one limit, with the same answers and Retry-After as one server.
 */
export async function redisLimitStore(redis: Redis, now: Clock): Promise<LimitStore> {
  // The first replica's key wins; every replica then hashes addresses alike.
  await redis.set(SECRET_KEY, randomBytes(32).toString('base64'), 'NX');
  const secret = await redis.get(SECRET_KEY);
  if (secret === null) throw new Error(`The Redis key ${SECRET_KEY} vanished right after it was set`);
  return {
    window: (name, settings) => new RedisWindow(redis, name, settings, now),
    knownAddresses: new RedisKnownAddresses(redis),
    addressSecret: Buffer.from(secret, 'base64'),
  };
}
