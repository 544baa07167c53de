import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { proveTool } from './prove';
import { TEST_ENV, fakeToolDir, toolForTests } from './test-helpers';

const jmeter = await toolForTests('jmeter');

describe('proveTool', () => {
  const fakes = fakeToolDir('aqa-prove-');
  const { dir, script } = fakes;
  afterAll(() => fakes.remove());

  it('finds a jmeter that cannot load a plan (exits 0, prints ForbiddenClassException) not usable, with the reason', async () => {
    const bin = join(dir, 'forbidden-bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'jmeter'),
      [
        '#!/bin/sh',
        'if [ "$1" = "--version" ]; then echo "Version 2.13.19691222"; exit 0; fi',
        'echo "Creating summariser <summary>"',
        'echo "Error in NonGUIDriver com.thoughtworks.xstream.security.ForbiddenClassException: org.apache.jmeter.save.ScriptWrapper"',
        'exit 0',
      ].join('\n'),
    );
    chmodSync(join(bin, 'jmeter'), 0o755);
    const env = { ...process.env, PATH: `${bin}:/usr/bin:/bin`, JMETER_CMD: '' };
    const proof = await proveTool('jmeter', { env });
    expect(proof).toMatchObject({
      tool: 'jmeter',
      usable: false,
      reason:
        "JMeter 2.13 is installed but cannot load test plans: XStream rejects JMeter's own classes (ForbiddenClassException)",
      received: 0,
      recorded: 0,
    });
    expect(proof.details).toMatch(/ForbiddenClassException: org\.apache\.jmeter\.save\.ScriptWrapper/);
  }, 30_000);

  it('finds a tool that records requests it never sent not usable', async () => {
    // Writes one k6 JSON point per call as k6 would, but sends nothing to the check's listener.
    const liar = script(
      'lying-k6',
      [
        'if [ "$1" = "version" ]; then echo "k6 v0.49.0 (go1.21.6, linux/amd64)"; exit 0; fi',
        'out=""; prev=""',
        'for a in "$@"; do if [ "$prev" = "--out" ]; then out="${a#json=}"; fi; prev="$a"; done',
        'now=$(date -u +%Y-%m-%dT%H:%M:%S.000Z)',
        `echo '{"type":"Point","metric":"http_req_duration","data":{"time":"'$now'","value":1.5,"tags":{"name":"tool check","method":"GET","status":"200","expected_response":"true"}}}' > "$out"`,
        'exit 0',
      ].join('\n'),
    );
    const proof = await proveTool('k6', { env: { ...process.env, K6_CMD: liar } });
    expect(proof.usable).toBe(false);
    expect(proof.received).toBe(0);
    expect(proof.reason).toMatch(
      /^k6 0\.49\.0 is installed but sent no request when it ran a one-request test plan/,
    );
  }, 30_000);

  it('says a tool that is not there is not installed', async () => {
    const proof = await proveTool('taurus', { env: { ...process.env, BZT_CMD: join(dir, 'no-bzt') } });
    expect(proof.usable).toBe(false);
    expect(proof.reason).toMatch(/^Taurus is not installed: BZT_CMD=.*no-bzt: command not found/);
  });

  it.skipIf(jmeter.skip)(
    "proves Debian's JMeter usable through the engine's launcher: the check's listener counted what it recorded",
    async () => {
      const proof = await proveTool('jmeter', { env: TEST_ENV });
      expect(proof.reason).toBeNull();
      expect(proof.usable).toBe(true);
      expect(proof.received).toBeGreaterThan(0);
      expect(proof.recorded).toBe(proof.received);
    },
    120_000,
  );

  it.skipIf(jmeter.skip || process.env.JMETER_CMD !== undefined)(
    "finds Debian's plain jmeter (JMETER_CMD=/usr/bin/jmeter, no launcher) not usable: the real ForbiddenClassException",
    async () => {
      const proof = await proveTool('jmeter', { env: { ...process.env, JMETER_CMD: '/usr/bin/jmeter' } });
      expect(proof.usable).toBe(false);
      expect(proof.reason).toBe(
        "JMeter 2.13 is installed but cannot load test plans: XStream rejects JMeter's own classes (ForbiddenClassException)",
      );
      expect(proof.received).toBe(0);
    },
    120_000,
  );
});
