import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { which } from './command';
import { debianJmeterCommand, isDebianJmeter, launcherSourcePath } from './debian-jmeter';

const javac = which('javac');
const java = which('java');

describe("Debian's JMeter launcher", () => {
  const dir = mkdtempSync(join(tmpdir(), 'aqa-debian-jmeter-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ships its Java source in the engine package', () => {
    expect(launcherSourcePath()).toMatch(/packages\/engine\/tools\/jmeter\/DebianJMeter\.java$/);
  });

  it("recognises Debian's jmeter start script and nothing else", () => {
    const other = join(dir, 'jmeter');
    writeFileSync(other, '#!/bin/sh\nexec /opt/apache-jmeter-5.6.3/bin/jmeter "$@"\n');
    expect(isDebianJmeter(other)).toBe(false);
    if (existsSync('/usr/bin/jmeter') && existsSync('/usr/share/jmeter/bin/ApacheJMeter.jar')) {
      expect(isDebianJmeter('/usr/bin/jmeter')).toBe(true);
    }
  });

  it('says plainly when there is no javac to build it', async () => {
    const build = await debianJmeterCommand({
      env: process.env,
      javac: undefined,
      java: '/usr/bin/java',
      cacheDir: join(dir, 'none'),
    });
    expect(build).toEqual({
      problem: 'javac was not found on PATH (install the JDK: apt-get install default-jdk-headless)',
    });
  });

  it.skipIf(!javac || !java)(
    'compiles once into the cache directory and reuses the class',
    async () => {
      const cacheDir = join(dir, 'cache');
      const [a, b] = await Promise.all([
        debianJmeterCommand({ env: process.env, javac, java, cacheDir }),
        debianJmeterCommand({ env: process.env, javac, java, cacheDir }),
      ]);
      expect(a).toBe(b);
      if ('problem' in a) throw new Error(a.problem);
      expect(a.argv[0]).toBe(java);
      expect(a.argv.at(-1)).toBe('DebianJMeter');
      const built = readdirSync(join(cacheDir, 'jmeter-launcher'));
      expect(built).toHaveLength(1);
      expect(existsSync(join(cacheDir, 'jmeter-launcher', built[0]!, 'DebianJMeter.class'))).toBe(true);
      expect(a.argv[a.argv.indexOf('-cp') + 1]).toContain(join(cacheDir, 'jmeter-launcher', built[0]!));
    },
    60_000,
  );
});
