import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findRepoRoot, resolveToolCommand, splitCommand } from './command';
import { detectTools, parseToolVersion } from './detect';
import { TEST_ENV, fakeToolDir, toolForTests } from './test-helpers';

const jmeter = await toolForTests('jmeter');
const locust = await toolForTests('locust');

describe('detectTools', () => {
  const fakes = fakeToolDir('aqa-detect-');
  const { dir, script } = fakes;
  afterAll(() => fakes.remove());

  it('reports every tool, with the version its version command prints', async () => {
    const env = {
      ...TEST_ENV,
      K6_CMD: script('k6', 'echo "k6 v0.49.0 (go1.21.6, linux/amd64)"'),
      BZT_CMD: join(dir, 'no-such-bzt'),
    };
    const tools = await detectTools(env, { refresh: true });
    expect(tools.map((t) => t.tool)).toEqual(['jmeter', 'k6', 'locust', 'taurus']);
    const k6 = tools.find((t) => t.tool === 'k6')!;
    expect(k6).toMatchObject({ name: 'Grafana k6', installed: true, version: '0.49.0', command: env.K6_CMD });
    const bzt = tools.find((t) => t.tool === 'taurus')!;
    expect(bzt.installed).toBe(false);
    expect(bzt.version).toBeNull();
    expect(bzt.problem).toMatch(/BZT_CMD=.*no-such-bzt: command not found/);
    // Answered from the cache the second time.
    expect(await detectTools(env)).toBe(await detectTools(env));
  });

  it('reports a version command that fails or hangs as not installed, with the reason', async () => {
    const env = {
      ...TEST_ENV,
      K6_CMD: script('k6-broken', 'echo "k6: cannot start" >&2; exit 3'),
      BZT_CMD: script('bzt-hangs', 'sleep 30'),
    };
    const started = Date.now();
    const tools = await detectTools(env, { tools: ['k6', 'taurus'], timeoutMs: 500, refresh: true });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(tools[0]).toMatchObject({ tool: 'k6', installed: false });
    expect(tools[0]!.problem).toMatch(/exited with code 3: k6: cannot start/);
    expect(tools[1]).toMatchObject({ tool: 'taurus', installed: false });
    expect(tools[1]!.problem).toMatch(/within 500 ms/);
  });

  it.skipIf(jmeter.skip)("reports Debian's JMeter 2.13 (through the engine's launcher)", () => {
    expect(jmeter.info).toMatchObject({
      tool: 'jmeter',
      name: 'Apache JMeter',
      installed: true,
      version: '2.13',
    });
    expect(jmeter.info.command).toMatch(/jmeter/);
  });

  it.skipIf(locust.skip)("reports Debian's Locust 2.12 and its version", () => {
    expect(locust.info).toMatchObject({ tool: 'locust', installed: true });
    expect(locust.info.version).toMatch(/^2\.\d+/);
  });
});

describe('tool commands', () => {
  it('parse the versions the tools print', () => {
    expect(parseToolVersion('jmeter', 'Copyright (c) 1998-2015\nVersion 2.13.19691222')).toBe('2.13');
    expect(parseToolVersion('jmeter', '    _    ____   _    ____ \n 5.6.3\nVersion 5.6.3')).toBe('5.6.3');
    expect(parseToolVersion('k6', 'k6 v0.49.0 (go1.21.6, linux/amd64)')).toBe('0.49.0');
    expect(
      parseToolVersion('locust', 'locust 2.12.1 from /usr/lib/python3/dist-packages/locust (python 3.11.2)'),
    ).toBe('2.12.1');
    expect(parseToolVersion('locust', 'locust ')).toBeNull();
    expect(parseToolVersion('taurus', 'Taurus CLI Tool v1.16.29')).toBe('1.16.29');
  });

  it('split command lines and resolve relative ones from the repository root', async () => {
    expect(splitCommand(`/usr/bin/python3 -m locust`)).toEqual(['/usr/bin/python3', '-m', 'locust']);
    expect(splitCommand(`"/opt/my tools/jmeter" -Jx='a b' \\$HOME`)).toEqual([
      '/opt/my tools/jmeter',
      '-Jx=a b',
      '$HOME',
    ]);
    const root = findRepoRoot();
    const cmd = await resolveToolCommand('jmeter', {
      env: { PATH: '' },
      command: 'packages/engine/bin/aqa.mjs -x',
      baseDir: root,
    });
    expect(cmd.argv).toEqual([join(root, 'packages', 'engine', 'bin', 'aqa.mjs'), '-x']);
    expect(cmd.from).toBe('option');
    // A configured command is run as it is, even for Debian's JMeter: no launcher.
    expect(cmd.debianLauncher).toBeUndefined();
    const missing = await resolveToolCommand('k6', { env: { PATH: '/nonexistent' } });
    expect(missing).toMatchObject({ found: false, from: 'default', argv: ['k6'] });
  });
});
