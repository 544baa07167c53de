import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER_MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

/** A server started as `npm start` would (src/main.ts through tsx) in its own process. */
export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM and the wait for its exit (its clean shutdown); at once when it has exited. */
  stop(): Promise<void>;
}

/** Every server process started here that has not exited yet. */
const running = new Set<ChildProcess>();

/**
 * Stops every server process started here that is still running, even one whose start was still
 * awaited (a test set-up that timed out leaves none behind): SIGTERM, then SIGKILL after 5 s.
 */
export async function stopServerProcesses(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((done) => {
          const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.once('exit', () => {
            clearTimeout(killer);
            done();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** Resolves once the server listens; rejects with its output when it exits first. */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SERVER_MAIN], {
      cwd: SERVER_DIR,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    let output = '';
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (listening?.[1]) {
        resolve({
          base: listening[1],
          child,
          output: () => output,
          async stop() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new ExitedError(code, output)));
  });
}

/** The server exited before it listened: its exit code and what it wrote. */
export class ExitedError extends Error {
  constructor(
    readonly code: number | null,
    readonly output: string,
  ) {
    super(`The server exited (${code}) before listening:\n${output}`);
  }
}

/** One server-sent event as read from a stream. */
export interface SentEvent {
  event: string;
  data: unknown;
}

/** Reads a text/event-stream answer to its end, event by event (comments skipped), telling `onEvent` of each. */
export async function readEvents(
  response: Response,
  onEvent: (event: SentEvent, index: number) => void = () => undefined,
): Promise<SentEvent[]> {
  if (response.body === null) throw new Error(`No body (${response.status})`);
  const events: SentEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event !== undefined && data !== undefined) {
        const sent = { event, data: JSON.parse(data) as unknown };
        events.push(sent);
        onEvent(sent, events.length - 1);
      }
      end = buffer.indexOf('\n\n');
    }
  }
  return events;
}
