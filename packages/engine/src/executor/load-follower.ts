import {
  ArrivalSchedule,
  parseSpanMs,
  profileLengthMs,
  profilePoints,
  targetAt,
  type LoadProfile,
  type ProfilePoint,
} from '@aqa/plan';

/**
 * How one shard follows a run's load profile (docs/adr/0027-load-profiles.md, "The schedule"): the
 * arithmetic of its share of the planned line, kept apart from the shard's timers so that it is tested
 * on its own.
 */
export interface ShardProfileOptions {
  /** The run's whole profile (validated by LoadProfileSchema). */
  profile: LoadProfile;
  /** Shards the run's load is split over, and this shard's place among them (0-based). */
  shards: number;
  index: number;
}

/**
 * Planned users at `atMs`: the line rounded down, so a user exists once the line has reached it and
 * leaves as soon as it falls below. The epsilon keeps 2.9999999 (a float of an exact 3) at 3.
 */
export function usersAt(points: readonly ProfilePoint[], atMs: number): number {
  return Math.max(0, Math.floor(targetAt(points, atMs) + 1e-9));
}

/**
 * Shard `index`'s share of `total` over `shards` (docs/adr/0027-load-profiles.md, "The schedule"): the
 * floor, plus one for the first `total mod shards`, so the shares always add up to the total.
 */
export function shareOf(total: number, shards: number, index: number): number {
  return Math.floor(total / shards) + (index < total % shards ? 1 : 0);
}

/**
 * The first instant after `nowMs` at which the shard's share differs from `share`, or undefined when
 * it does not change before the profile ends. The share is at least j exactly while the planned users
 * are at least (j − 1)·shards + index + 1, so the share rises when the line reaches
 * `share·shards + index + 1` and falls when it drops below `(share − 1)·shards + index + 1`.
 */
export function nextShareChangeMs(
  points: readonly ProfilePoint[],
  nowMs: number,
  share: number,
  shards: number,
  index: number,
): number | undefined {
  const up = share * shards + index + 1 - 1e-9;
  const down = (share - 1) * shards + index + 1 - 1e-9;
  const outside = (v: number): boolean => v >= up || v < down;
  for (let i = 1; i < points.length; i++) {
    const from = points[i - 1]!;
    const to = points[i]!;
    if (to.atMs <= nowMs || to.atMs === from.atMs) continue;
    // A step (a 0 s stage) or an earlier segment's end shows as this segment's first value.
    if (from.atMs > nowMs && outside(from.target)) return from.atMs;
    const slope = (to.target - from.target) / (to.atMs - from.atMs);
    let at: number | undefined;
    if (slope > 0 && to.target >= up) at = from.atMs + (up - from.target) / slope;
    else if (slope < 0 && to.target < down) at = from.atMs + (down - from.target) / slope;
    if (at !== undefined && at > nowMs && at < to.atMs) return at;
  }
  return undefined;
}

/** A shard's view of the profile, built once when the shard is made. */
export class ShardPlan {
  readonly points: ProfilePoint[];
  readonly lengthMs: number;
  readonly gracefulStopMs: number;
  readonly open: boolean;
  /** Open model: the run's schedule; this shard takes iterations index, index + shards, … */
  readonly schedule: ArrivalSchedule | null;

  constructor(readonly options: ShardProfileOptions) {
    const { profile } = options;
    this.points = profilePoints(profile);
    this.lengthMs = profileLengthMs(profile);
    this.gracefulStopMs = parseSpanMs(profile.graceful_stop, 'Graceful stop');
    this.open = profile.model === 'arrival_rate';
    this.schedule = this.open ? new ArrivalSchedule(this.points) : null;
  }

  /** The shard's users at `atMs` (closed model). */
  shareAt(atMs: number): number {
    return shareOf(usersAt(this.points, atMs), this.options.shards, this.options.index);
  }

  /**
   * When (ms from the start, a whole millisecond strictly after the crossing) the shard's share next
   * differs from `share`; undefined when it stays until the profile's end.
   */
  nextChangeMs(nowMs: number, share: number): number | undefined {
    const at = nextShareChangeMs(this.points, nowMs, share, this.options.shards, this.options.index);
    if (at === undefined || at >= this.lengthMs) return undefined;
    return Math.floor(at) + 1;
  }
}
