import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { waitFor } from './wait-for';

describe('waitFor', () => {
  it('answers the first value the probe gives, asking again every `everyMs`', async () => {
    let asked = 0;
    const value = await waitFor('the third answer', () => (++asked === 3 ? 'three' : undefined), 5_000, 20);
    expect(value).toBe('three');
    expect(asked).toBe(3);
  });

  it('keeps falsy values other than undefined as answers', async () => {
    expect(await waitFor('a zero', async () => 0)).toBe(0);
    expect(await waitFor('false', () => false)).toBe(false);
  });

  it('fails naming what it waited for, read only on failure, so it can carry the last state', async () => {
    let last = 0;
    let named = 0;
    const waiting = waitFor(
      () => {
        named++;
        return `a count above 1000 (it is ${last})`;
      },
      () => {
        last++;
        return undefined;
      },
      60,
      10,
    );
    await expect(waiting).rejects.toThrow(/^timed out waiting for a count above 1000 \(it is \d+\)$/);
    expect(last).toBeGreaterThan(1);
    expect(named).toBe(1);
  });
});

describe('the server tests', () => {
  // One polling helper (docs/style.md "Tests"): a deadline written by hand is a second one.
  it('wait through waitFor, with no deadline loop of their own', () => {
    const folder = fileURLToPath(new URL('.', import.meta.url));
    const ownDeadlines = readdirSync(folder)
      .filter((name) => name.endsWith('.ts') && name !== 'wait-for.ts' && name !== 'wait-for.test.ts')
      .flatMap((name) =>
        readFileSync(join(folder, name), 'utf8')
          .split('\n')
          .flatMap((line, i) => (/Date\.now\(\)\s*\+/.test(line) ? [`${name}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(ownDeadlines).toEqual([]);
  });
});
