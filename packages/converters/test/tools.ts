/* eslint-disable no-restricted-imports -- Node-only test helper, imported by *.test.ts files only. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the real tools are, and how the runnable-proof tests start them. */

const REPO = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

/** Debian's python3-locust lives under the system Python, not the first python3 on PATH. */
export const LOCUST_PYTHON = process.env.LOCUST_PYTHON ?? '/usr/bin/python3';

/** Where Debian's jmeter package puts JMeter 2.13. */
const DEBIAN_JMETER_HOME = '/usr/share/jmeter';

/**
 * The repository's own launcher for Debian's JMeter 2.13, which opens XStream's allow-list for
 * JMeter's classes (Debian's `jmeter` cannot load a plan without it; see the file's comment).
 */
const JMETER_LAUNCHER = join(REPO, 'packages', 'engine', 'tools', 'jmeter', 'DebianJMeter.java');

/**
 * How these tests start JMeter: JMETER_CMD when set; else Debian's JMeter through the launcher, run
 * in Java's single-file source mode (the engine compiles it once into a cache instead; these tests
 * do not depend on the engine package).
 */
const JMETER_ARGV: readonly string[] = process.env.JMETER_CMD
  ? [process.env.JMETER_CMD]
  : [
      'java',
      `-Djmeter.home=${DEBIAN_JMETER_HOME}`,
      '-cp',
      [
        `${DEBIAN_JMETER_HOME}/bin/ApacheJMeter.jar`,
        `${DEBIAN_JMETER_HOME}/lib/*`,
        `${DEBIAN_JMETER_HOME}/lib/ext/*`,
      ].join(':'),
      JMETER_LAUNCHER,
    ];

export function locustMissing(): string | undefined {
  if (!existsSync(LOCUST_PYTHON)) return `${LOCUST_PYTHON} is not installed`;
  if (!existsSync('/usr/lib/python3/dist-packages/locust')) {
    return 'python3-locust is not installed (apt-get install python3-locust)';
  }
  return undefined;
}

export function jmeterMissing(): string | undefined {
  const configured = process.env.JMETER_CMD;
  if (configured) return existsSync(configured) ? undefined : `JMETER_CMD=${configured} does not exist`;
  if (!existsSync(`${DEBIAN_JMETER_HOME}/bin/ApacheJMeter.jar`)) {
    return 'Debian jmeter is not installed (apt-get install jmeter jmeter-http default-jdk-headless)';
  }
  if (spawnSync('java', ['-version'], { stdio: 'ignore' }).status !== 0) {
    return 'java is not installed (apt-get install default-jdk-headless)';
  }
  return undefined;
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a command without blocking the event loop (the target server answers it meanwhile). */
export function runCommand(
  command: string,
  args: string[],
  { cwd, timeoutMs, env }: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** A fresh temporary directory holding the given files. */
export function workDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'aqa-converters-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Runs a Locust file headless for a few seconds against host. */
export function runLocust(
  dir: string,
  file: string,
  host: string,
  { users = 2, seconds = 3 } = {},
): Promise<CommandResult> {
  return runCommand(
    LOCUST_PYTHON,
    [
      '-m',
      'locust',
      '-f',
      file,
      '--headless',
      '-u',
      String(users),
      '-r',
      String(users),
      '-t',
      `${seconds}s`,
      '--host',
      host,
      '--only-summary',
      '--stop-timeout',
      '2',
    ],
    { cwd: dir, timeoutMs: 60_000 },
  );
}

/** Runs a JMX non-GUI with the plan's users and duration overridden for a short run; `properties` as -Jname=value. */
export function runJmeter(
  dir: string,
  file: string,
  {
    users = 2,
    seconds = 3,
    properties = {},
  }: { users?: number; seconds?: number; properties?: Record<string, string> } = {},
): Promise<CommandResult> {
  return runCommand(
    JMETER_ARGV[0]!,
    [
      ...JMETER_ARGV.slice(1),
      '-n',
      '-t',
      file,
      '-l',
      'out.jtl',
      '-j',
      'jmeter.log',
      `-Jaqa.users=${users}`,
      `-Jaqa.duration=${seconds}`,
      '-Jjmeter.save.saveservice.output_format=csv',
      '-Jjmeter.save.saveservice.print_field_names=true',
      '-Jjmeter.save.saveservice.assertion_results_failure_message=true',
      ...Object.entries(properties).map(([name, value]) => `-J${name}=${value}`),
    ],
    { cwd: dir, timeoutMs: 90_000 },
  );
}

/**
 * The rows of a CSV JTL written with field names: label, success and failureMessage per sample, and every
 * column by name in `fields` (sample variables too). Quoted cells may hold commas, quotes and line breaks.
 */
export function readJtl(csv: string): Array<{
  label: string;
  success: boolean;
  responseCode: string;
  failureMessage: string;
  threadName: string;
  fields: Record<string, string>;
}> {
  const [header = [], ...rows] = splitCsv(csv.trim());
  return rows.map((cells) => {
    const fields = Object.fromEntries(header.map((name, i) => [name, cells[i] ?? '']));
    return {
      label: fields.label ?? '',
      success: fields.success === 'true',
      responseCode: fields.responseCode ?? '',
      failureMessage: fields.failureMessage ?? '',
      threadName: fields.threadName ?? '',
      fields,
    };
  });
}

function splitCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n') {
      row.push(cell.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  row.push(cell);
  rows.push(row);
  return rows;
}
