import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { FunctionalPlanSchema, type FunctionalPlan, type FunctionalPlanInput } from '@aqa/plan';
import type { UiScreenshot } from './contract';

/*
 * What the UI runner's tests share: plans built through the model, a screenshot store that keeps the
 * bytes, and the Chromium processes this test process started.
 */

export const CHROMIUM = '/usr/bin/chromium';

export function uiPlan(
  apis: FunctionalPlanInput['apis'],
  extra: Partial<FunctionalPlanInput> = {},
): FunctionalPlan {
  return FunctionalPlanSchema.parse({
    test_name: 'UI',
    source: 'ui_url_input',
    test_type: 'ui',
    apis,
    ...extra,
  });
}

export function scriptPlan(yaml: string): FunctionalPlan {
  return FunctionalPlanSchema.parse({
    test_name: 'Script',
    source: 'script_input',
    source_page: 'functional-script-input',
    test_framework: 'selenium',
    script_content: yaml,
  });
}

/** A Selenium-style Taurus script whose requests are the given YAML lines (indented by 4). */
export function seleniumScript(
  base: string,
  requests: string[],
  variables: Record<string, string> = {},
): string {
  const vars = Object.entries(variables).map(([k, v]) => `      ${k}: ${v}`);
  return [
    'execution:',
    '- executor: selenium',
    '  scenario: shop',
    'scenarios:',
    '  shop:',
    `    default-address: ${base}`,
    ...(vars.length > 0 ? ['    variables:', ...vars] : []),
    '    requests:',
    ...requests,
  ].join('\n');
}

export class ShotStore {
  readonly shots = new Map<string, UiScreenshot>();
  save = (shot: UiScreenshot): Promise<string> => {
    const id = `s${this.shots.size + 1}`;
    this.shots.set(id, shot);
    return Promise.resolve(id);
  };
}

/** The pids of the Chromium processes descending from this process, read from /proc. */
export function chromiumDescendants(): number[] {
  const parents = new Map<number, { ppid: number; comm: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may hold spaces and brackets.
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const [state, ppid] = stat.slice(close + 2).split(' ');
      if (state === 'Z') continue;
      parents.set(Number(name), { ppid: Number(ppid), comm });
    } catch {
      // The process ended while the list was read.
    }
  }
  const descends = (pid: number): boolean => {
    for (let at = parents.get(pid), hops = 0; at !== undefined && hops < 50; hops++) {
      if (at.ppid === process.pid) return true;
      at = parents.get(at.ppid);
    }
    return false;
  };
  return [...parents].filter(([pid, p]) => /chrom/i.test(p.comm) && descends(pid)).map(([pid]) => pid);
}

/** Waits until `done` holds, checking every 50 ms, for at most `ms`. */
export async function until(done: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('waited too long');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The Chromium processes left after `ms` (a killed browser's helpers may take a moment to follow it). */
export async function noChromiumWithin(ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  while (chromiumDescendants().length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return chromiumDescendants();
}

/** A directory's files served on loopback, as the recorders' own test suites serve their pages. */
export async function serveDirectory(dir: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const types: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.json': 'application/json',
    '.png': 'image/png',
    '.svg': 'image/svg+xml',
  };
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    try {
      const body = readFileSync(join(dir, path.endsWith('/') ? `${path}index.html` : path));
      res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A sign-in page on loopback, for the recorded tests of test-fixtures/: "/" (title "Sign in") has a
 * name field and a button that submits to "/hello", whose #out says "Hello <name>" (title "Welcome").
 */
export async function serveSignIn(): Promise<{ origin: string; close: () => Promise<void> }> {
  const html = (title: string, body: string): string =>
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
  const escape = (text: string): string =>
    text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const page =
      url.pathname === '/'
        ? html(
            'Sign in',
            '<form action="/hello" method="get"><label for="name">Name</label> <input id="name" name="name"> <button id="go" type="submit">Sign in</button></form>',
          )
        : url.pathname === '/hello'
          ? html(
              'Welcome',
              `<h1 id="out">${escape(`Hello ${url.searchParams.get('name') ?? ''}`.trim())}</h1>`,
            )
          : null;
    res.writeHead(page === null ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
