import { describe, expect, it } from 'vitest';
import {
  COUNTS_LENGTH,
  countsIndex,
  highestEquivalentValue,
  Histogram,
  HIGHEST_US,
  valueFromIndex,
} from './histogram';

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('Histogram', () => {
  it('keeps every value within 0.1 % across 1 µs .. 1 h', () => {
    for (const v of [
      1,
      2,
      999,
      1000,
      2047,
      2048,
      2049,
      12_345,
      999_999,
      20_000,
      1_000_000,
      123_456_789,
      HIGHEST_US,
    ]) {
      const idx = countsIndex(v);
      expect(idx).toBeLessThan(COUNTS_LENGTH);
      const lo = valueFromIndex(idx);
      const hi = highestEquivalentValue(idx);
      expect(lo).toBeLessThanOrEqual(v);
      expect(hi).toBeGreaterThanOrEqual(v);
      expect((hi - lo) / v).toBeLessThanOrEqual(0.001);
    }
  });

  it('computes percentiles by nearest rank and exact min, max and mean', () => {
    const h = new Histogram();
    for (let v = 1; v <= 1000; v++) h.record(v * 1000); // 1..1000 ms in µs
    expect(h.totalCount).toBe(1000);
    expect(h.min).toBe(1000);
    expect(h.max).toBe(1_000_000);
    expect(h.mean()).toBe(500_500);
    for (const [p, truth] of [
      [50, 500_000],
      [90, 900_000],
      [99, 990_000],
      [99.9, 999_000],
      [100, 1_000_000],
    ] as const) {
      const got = h.valueAtPercentile(p);
      expect(Math.abs(got - truth) / truth).toBeLessThanOrEqual(0.001);
    }
  });

  it('merges exactly: the merge of shards equals the histogram of all values', () => {
    const rnd = lcg(42);
    const all = new Histogram();
    const shards = [new Histogram(), new Histogram(), new Histogram()];
    for (let i = 0; i < 50_000; i++) {
      const v = Math.floor(Math.exp(rnd() * 16)) + 1;
      all.record(v);
      shards[i % 3]!.record(v);
    }
    const merged = new Histogram();
    for (const s of shards)
      merged.addEncoded(JSON.parse(JSON.stringify(s.encode())) as ReturnType<Histogram['encode']>);
    expect(Array.from(merged.counts)).toEqual(Array.from(all.counts));
    expect(merged.totalCount).toBe(all.totalCount);
    expect(merged.sum).toBe(all.sum);
    expect(merged.min).toBe(all.min);
    expect(merged.max).toBe(all.max);
    for (const p of [50, 90, 95, 99, 99.9])
      expect(merged.valueAtPercentile(p)).toBe(all.valueAtPercentile(p));
  });

  it('encodes sparsely and resets to empty', () => {
    const h = new Histogram();
    h.record(20_000);
    h.record(20_001);
    h.record(1_000_000);
    const e = h.encode();
    expect(e.i.length).toBeLessThanOrEqual(3);
    expect(e.c.reduce((a, b) => a + b, 0)).toBe(3);
    h.reset();
    expect(h.totalCount).toBe(0);
    expect(h.encode().i).toEqual([]);
    expect(h.valueAtPercentile(99)).toBe(0);
  });

  it('clamps values outside the range instead of failing', () => {
    const h = new Histogram();
    h.record(0);
    h.record(HIGHEST_US * 10);
    expect(h.totalCount).toBe(2);
    expect(h.max).toBe(HIGHEST_US);
  });

  it('never gives a percentile above the max or below the min, merged from shards or not', () => {
    // docs/adr/0006-hdr-histograms-merge-exactly.md "Percentiles within min and max": 14 560 µs lies in
    // a bucket whose highest value is 14 567 µs.
    const rand = lcg(24);
    for (let round = 0; round < 50; round++) {
      const shards = [new Histogram(), new Histogram(), new Histogram()];
      for (const shard of shards) {
        const n = 1 + Math.floor(rand() * 40);
        for (let k = 0; k < n; k++) shard.record(1 + rand() * 20_000 * (round + 1));
      }
      const merged = new Histogram();
      for (const shard of shards) merged.addEncoded(shard.encode());
      for (const h of [...shards, merged]) {
        for (const p of [0, 50, 90, 95, 99, 99.9, 100]) {
          expect(h.valueAtPercentile(p)).toBeLessThanOrEqual(h.max);
          expect(h.valueAtPercentile(p)).toBeGreaterThanOrEqual(h.min);
        }
      }
    }
    const one = new Histogram();
    one.record(14_560);
    expect(highestEquivalentValue(countsIndex(14_560))).toBeGreaterThan(14_560);
    expect(one.valueAtPercentile(99)).toBe(14_560);
  });
});
