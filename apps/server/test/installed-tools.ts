import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/*
 * The external tools as this machine has them, for the tests that run plans in them through the app
 * (docs/design.md §4): Debian's JMeter 2.13 and Debian's python3-locust.
 */

/**
 * Whether Debian's JMeter can run plans here: its package, and the JDK that compiles the engine's own
 * launcher for it on first use (Debian's package cannot load a plan as shipped; debian-jmeter.ts).
 */
export const hasJmeter =
  existsSync('/usr/bin/jmeter') && spawnSync('javac', ['-version'], { stdio: 'ignore' }).status === 0;

/** Whether Locust is installed: only /usr/bin/python3 imports it. */
export const hasLocust =
  spawnSync('/usr/bin/python3', ['-c', 'import locust'], { stdio: 'ignore' }).status === 0;

/** The Locust command for a server that runs plans in Debian's python3-locust. */
export const LOCUST_CMD = '/usr/bin/python3 -m locust';

/** A server that runs plans in the installed tools, for a test that signs up and runs many plans. */
export const TOOL_RUNS_ENV: Readonly<Record<string, string>> = {
  LOGIN_RATE_LIMIT_PER_IP: '1000',
  REGISTER_RATE_LIMIT_PER_IP: '1000',
  EXTERNAL_TOOLS: 'on',
  LOCUST_CMD,
};
