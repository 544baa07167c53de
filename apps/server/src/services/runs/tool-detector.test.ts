import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolDetector } from './tool-detector';

const dir = mkdtempSync(join(tmpdir(), 'aqa-tools-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** Detection only: these stand-ins print a version and nothing else, so they are never checked with a plan. */
const DETECT_ONLY = { runsTools: false } as const;

describe('ToolDetector', () => {
  it('reads the version each tool prints, once', async () => {
    const k6 = script('k6', 'echo "k6 v0.52.0 (go1.22.4, linux/amd64)"; echo run >> "$0.calls"');
    const detector = new ToolDetector({ k6 }, DETECT_ONLY);
    expect(await detector.detect('k6')).toEqual({
      tool: 'k6',
      name: 'Grafana k6',
      installed: true,
      version: '0.52.0',
      command: k6,
      usable: false,
      reason:
        'Grafana k6 is installed, but running plans in external tools is turned off on this server (EXTERNAL_TOOLS=off)',
    });
    await detector.detect('k6');
    expect((await import('node:fs')).readFileSync(`${k6}.calls`, 'utf8')).toBe('run\n');
  });

  it('runs a configured command line with its own arguments before the version option', async () => {
    const python = script('python', 'echo "args: $*"; echo "locust 2.31.1 from /x"');
    const info = await new ToolDetector({ locust: `${python} -m locust` }, DETECT_ONLY).detect('locust');
    expect(info).toMatchObject({ installed: true, version: '2.31.1', command: `${python} -m locust` });
  });

  it('finds a tool on PATH by its usual name', async () => {
    script(
      'bzt',
      'echo "Usage: bzt [options]"; echo "BlazeMeter Taurus Tool v1.16.49, the configuration-driven test running engine"',
    );
    const info = await new ToolDetector({}, { ...DETECT_ONLY, env: { PATH: `/nonexistent:${dir}` } }).detect(
      'taurus',
    );
    expect(info).toMatchObject({
      tool: 'taurus',
      name: 'Taurus',
      installed: true,
      version: '1.16.49',
      command: join(dir, 'bzt'),
      usable: false,
    });
  });

  it('counts a missing, failing or hanging command as not installed', async () => {
    const failing = script('failing', 'echo "no java" >&2; exit 1');
    const hanging = script('hanging', 'sleep 5');
    const detector = new ToolDetector(
      { jmeter: join(dir, 'absent'), k6: failing, locust: hanging },
      { timeoutMs: 300, env: { PATH: '' } },
    );
    const absent = (name: string) => ({
      name,
      installed: false,
      version: null,
      command: null,
      usable: false,
      reason: `${name} is not installed on this server`,
    });
    expect(await detector.detectAll()).toEqual([
      { tool: 'jmeter', ...absent('Apache JMeter') },
      { tool: 'k6', ...absent('Grafana k6') },
      { tool: 'locust', ...absent('Locust') },
      { tool: 'taurus', ...absent('Taurus') },
    ]);
  });

  it('keeps a tool that runs but does not say its version as installed, version unknown', async () => {
    const quiet = script('quiet', 'echo "k6"');
    expect(await new ToolDetector({ k6: quiet }, DETECT_ONLY).detect('k6')).toMatchObject({
      installed: true,
      version: null,
    });
  });
});
