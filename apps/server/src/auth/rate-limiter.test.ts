import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from './rate-limiter';

function limiter(limit: number, windowMs: number, maxKeys?: number) {
  let now = 1_000_000;
  const instance = new SlidingWindowLimiter({
    limit,
    windowMs,
    now: () => now,
    ...(maxKeys ? { maxKeys } : {}),
  });
  return { instance, advance: (ms: number) => (now += ms) };
}

describe('SlidingWindowLimiter', () => {
  it('allows `limit` attempts in a window, then refuses with the seconds until the oldest leaves it', () => {
    const { instance, advance } = limiter(3, 60_000);
    expect(instance.consume('ip')).toEqual({ allowed: true, retryAfterS: 0 });
    advance(10_000);
    instance.consume('ip');
    advance(10_000);
    instance.consume('ip');
    advance(5_000);
    expect(instance.consume('ip')).toEqual({ allowed: false, retryAfterS: 35 });
  });

  it('slides: each attempt frees its slot exactly one window after it was made', () => {
    const { instance, advance } = limiter(2, 1_000);
    instance.consume('k');
    advance(600);
    instance.consume('k');
    advance(399);
    expect(instance.consume('k').allowed).toBe(false);
    advance(1);
    expect(instance.consume('k').allowed).toBe(true);
    expect(instance.consume('k')).toEqual({ allowed: false, retryAfterS: 1 });
  });

  it('refused attempts are not counted by consume, so waiting always helps', () => {
    const { instance, advance } = limiter(1, 1_000);
    instance.consume('k');
    for (let i = 0; i < 10; i++) instance.consume('k');
    advance(1_000);
    expect(instance.consume('k').allowed).toBe(true);
  });

  it('check does not count; record counts even beyond the limit; reset forgets', () => {
    const { instance } = limiter(2, 60_000);
    expect(instance.check('a').allowed).toBe(true);
    expect(instance.check('a').allowed).toBe(true);
    instance.record('a');
    instance.record('a');
    expect(instance.check('a').allowed).toBe(false);
    instance.record('a');
    expect(instance.check('a').allowed).toBe(false);
    instance.reset('a');
    expect(instance.check('a').allowed).toBe(true);
  });

  it('keys are independent', () => {
    const { instance } = limiter(1, 60_000);
    instance.consume('a');
    expect(instance.consume('a').allowed).toBe(false);
    expect(instance.consume('b').allowed).toBe(true);
  });

  it('forgets keys whose attempts have all expired, and never holds more than maxKeys', () => {
    const { instance, advance } = limiter(1, 1_000, 100);
    for (let i = 0; i < 250; i++) instance.record(`key-${i}`);
    expect(instance.size).toBe(100);
    advance(1_000);
    instance.record('fresh');
    expect(instance.size).toBe(1);
  });

  it('rejects a nonsensical configuration', () => {
    expect(() => new SlidingWindowLimiter({ limit: 0, windowMs: 1_000 })).toThrow(RangeError);
    expect(() => new SlidingWindowLimiter({ limit: 1, windowMs: 0 })).toThrow(RangeError);
  });
});
