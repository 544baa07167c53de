import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Runner, RunnerHandle, ToolRunner } from './runner';
import { RunnerRegistry } from './runner';
import { ToolDetector } from './tool-detector';

const dir = mkdtempSync(join(tmpdir(), 'aqa-runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const notStarted = (): RunnerHandle => {
  throw new Error('choose() only picks a runner');
};
const builtin: Runner = { engine: 'builtin', start: notStarted };
const k6Adapter: ToolRunner = { engine: 'k6', start: notStarted };

describe('RunnerRegistry', () => {
  it('waits a bounded time for a tool still being checked, then uses the built-in engine saying so', async () => {
    // Knows its version; a run takes 2 s and sends nothing, so its check ends "not usable".
    const k6 = join(dir, 'slow-k6');
    writeFileSync(
      k6,
      '#!/bin/sh\nif [ "$1" = "version" ]; then echo "k6 v0.49.0 (go1.21.6, linux/amd64)"; exit 0; fi\nsleep 2\nexit 0\n',
    );
    chmodSync(k6, 0o755);
    const tools = new ToolDetector({ k6 }, { env: { PATH: process.env.PATH } });
    const registry = new RunnerRegistry(builtin, tools, 300);
    registry.register(k6Adapter);

    const asked = Date.now();
    const early = await registry.choose('k6');
    expect(Date.now() - asked).toBeLessThan(2000);
    expect(early.runner).toBe(builtin);
    expect(early.note).toBe(
      'k6 0.49.0 is installed and is still being checked with a one-request test plan; this run used the built-in engine',
    );
    expect(await tools.detect('k6')).toMatchObject({ installed: true, usable: false });

    // Once the check has answered, runs get its reason.
    await tools.proveAll();
    const later = await registry.choose('k6');
    expect(later.runner).toBe(builtin);
    expect(later.note).toBe(
      'k6 0.49.0 is installed but sent no request when it ran a one-request test plan; this run used the built-in engine',
    );
  }, 30_000);
});
