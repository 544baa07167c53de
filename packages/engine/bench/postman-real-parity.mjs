/* eslint-disable no-console -- A measuring tool: it talks to the person running it. */
// Published Postman collections against Newman (issue #27; docs/adr/0029-postman-collections.md §3
// "Parity with Newman"). For each collection (and its environment, when given) it
//   a) imports it with postmanToFunctionalPlan and prints what became of it: requests in the file and
//      APIs imported, tests → rules / scripts / left out (with request and line), captures, warnings;
//   b) runs it through real Newman 6 and through our functional runner, one iteration each, against a
//      local mock API (node:http on 127.0.0.1 that answers every request 200 with a JSON echo of it);
//   c) compares every assertion (iteration, request, test name, occurrence: test/postman-parity/
//      compare.ts, as runner-parity.test.ts does) and prints the agreement and every disagreement.
//
// Nothing leaves this machine: the collection's hosts and the variables holding its base URL are
// pointed at the mock (variables as `newman run --env-var` sets them, over the collection's), and every
// connection to, or name lookup of, another host than the loopback (a URL a script sets, a
// pm.sendRequest) is refused in this process before it is made: both sides see ENOTFOUND.
//
// The collections are not in the repository: whoever runs this fetches them from the repositories
// the ADR names. No collection given (as `npm run bench` runs it): it says so and exits 0.
//
//   node packages/engine/bench/postman-real-parity.mjs COLLECTION.json [--environment ENV.json] [--data DATA]
//       [COLLECTION2.json …]
//   AQA_POSTMAN_COLLECTIONS=/dir npm run bench -- --only postman-real   (every *.json collection of /dir;
//       an environment beside it as NAME.environment.json, a data file as NAME.data.json or NAME.data.csv)
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import dns from 'node:dns';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { runUnderTsx } from '../../../scripts/lib/under-tsx.mjs';

// The sources are TypeScript: this script runs again under tsx's loader.
runUnderTsx(import.meta.url);

const { tokens } = parseArgs({
  options: { environment: { type: 'string', short: 'e' }, data: { type: 'string', short: 'd' } },
  allowPositionals: true,
  tokens: true,
});
/** @type {{ collection: string; environment?: string; data?: string }[]} */
const runs = [];
for (const t of tokens) {
  if (t.kind === 'positional') runs.push({ collection: t.value });
  else if (t.kind === 'option' && (t.name === 'environment' || t.name === 'data')) {
    const last = runs.at(-1);
    if (last === undefined || t.value === undefined) {
      console.error(`--${t.name} follows the collection it is for`);
      process.exit(2);
    }
    last[t.name] = t.value;
  }
}
const folder = process.env.AQA_POSTMAN_COLLECTIONS;
if (runs.length === 0 && folder) {
  for (const name of readdirSync(folder).sort()) {
    if (!name.endsWith('.json') || /\.(environment|data)\.json$/.test(name)) continue;
    const env = name.replace(/\.json$/, '.environment.json');
    const data = [name.replace(/\.json$/, '.data.json'), name.replace(/\.json$/, '.data.csv')].find((d) =>
      readdirSync(folder).includes(d),
    );
    runs.push({
      collection: join(folder, name),
      ...(readdirSync(folder).includes(env) ? { environment: join(folder, env) } : {}),
      ...(data ? { data: join(folder, data) } : {}),
    });
  }
}
if (runs.length === 0) {
  console.log(
    'postman-real-parity: no collection given — skipped. Give collection files (each optionally followed by ' +
      '--environment FILE and --data FILE), or AQA_POSTMAN_COLLECTIONS=<folder>; docs/adr/0029-postman-collections.md §3 ' +
      'names the published collections measured.',
  );
  process.exit(0);
}

// ── Only the loopback: refuse any other destination before a lookup is made. ──
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
/** Hosts a connection was refused to, with how many times. */
const refused = new Map();
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const host =
    typeof first === 'object' && first !== null
      ? first.path === undefined
        ? (first.host ?? 'localhost')
        : 'localhost'
      : typeof args[1] === 'string'
        ? args[1]
        : 'localhost';
  if (!LOOPBACK.has(host)) {
    refused.set(host, (refused.get(host) ?? 0) + 1);
    process.nextTick(() => this.destroy(new Error(`postman-real-parity sends nothing to ${host}`)));
    return this;
  }
  return connect.apply(this, args);
};

// …and no name lookup either (Newman's request library and our call look a host up before connecting).
const refuseLookup = (host) => {
  refused.set(host, (refused.get(host) ?? 0) + 1);
  const error = new Error(`postman-real-parity looks nothing up: getaddrinfo ENOTFOUND ${host}`);
  error.code = 'ENOTFOUND';
  error.hostname = host;
  return error;
};
const lookup = dns.lookup;
dns.lookup = function guardedLookup(host, ...rest) {
  if (LOOPBACK.has(host)) return lookup.call(this, host, ...rest);
  const callback = rest.at(-1);
  process.nextTick(() => callback(refuseLookup(host)));
  return undefined;
};
const promisedLookup = dns.promises.lookup;
dns.promises.lookup = (host, ...rest) =>
  LOOPBACK.has(host) ? promisedLookup(host, ...rest) : Promise.reject(refuseLookup(host));
for (const name of ['resolve', 'resolve4', 'resolve6', 'resolveAny']) {
  dns[name] = (host, ...rest) => process.nextTick(() => rest.at(-1)(refuseLookup(host)));
  dns.promises[name] = (host) => Promise.reject(refuseLookup(host));
}
// ESM imports of node:dns and node:net (`import { lookup } from 'node:dns'`) see the guarded ones too.
syncBuiltinESMExports();

const { postmanToFunctionalPlan } = await import('@aqa/converters');
const { FunctionalPlanSchema } = await import('@aqa/plan');
const { FunctionalRunner } = await import('../src/functional/runner.ts');
const { runNewmanWithErrors } = await import('../test/postman-parity/run-newman.ts');
const { agreement, describeDisagreement } = await import('../test/postman-parity/compare.ts');

// ── The mock API: 200 and a JSON echo of the request in postman-echo's shape (args, data, form, json,
// headers, cookies, url: what published collections written against postman-echo.com or httpbin.org
// read; /cookies/set?k=v sets cookies and redirects to /cookies, as postman-echo does), with
// the JSON body's own fields at the top as well, so a test that reads a field of its request finds it. ──
const mock = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    let json = null;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON: echoed as data only.
    }
    const type = req.headers['content-type'] ?? '';
    const form = /application\/x-www-form-urlencoded/i.test(type)
      ? Object.fromEntries(new URLSearchParams(text))
      : multipartFields(text, /boundary=("?)([^";]+)\1/i.exec(type)?.[2]);
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    const echo = {
      ...(json !== null && typeof json === 'object' && !Array.isArray(json) ? json : {}),
      args: Object.fromEntries(url.searchParams),
      data: json ?? text,
      form,
      json,
      headers: req.headers,
      method: req.method,
      path: url.pathname,
      url: url.href,
    };
    const cookies = Object.fromEntries(
      (req.headers.cookie ?? '')
        .split(';')
        .map((c) => c.trim().split('='))
        .filter(([k]) => k),
    );
    // postman-echo's cookie endpoints: /cookies/set?name=value sets them and redirects to /cookies.
    if (url.pathname.endsWith('/cookies/set')) {
      const setCookie = [...url.searchParams].map(([k, v]) => `${k}=${v}; Path=/`);
      res.writeHead(302, { location: url.pathname.replace(/\/set$/, ''), 'set-cookie': setCookie });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ ...echo, cookies }));
  });
});
/** A multipart/form-data body's text fields, by name (files are not echoed). */
function multipartFields(text, boundary) {
  if (boundary === undefined) return {};
  const fields = {};
  for (const part of text.split(`--${boundary}`)) {
    const at = part.indexOf('\r\n\r\n');
    const name = /name="([^"]*)"/i.exec(part.slice(0, at))?.[1];
    if (at < 0 || name === undefined || /filename=/i.test(part.slice(0, at))) continue;
    fields[name] = part.slice(at + 4).replace(/\r\n$/, '');
  }
  return fields;
}
await new Promise((resolve) => mock.listen({ port: 0, host: '127.0.0.1' }, resolve));
const ORIGIN = `http://127.0.0.1:${mock.address().port}`;
const work = mkdtempSync(join(tmpdir(), 'aqa-real-parity-'));

/** A variable's value pointed at the mock: a URL keeps its path, a bare host becomes the mock's. */
function mockValue(value) {
  if (typeof value !== 'string') return undefined;
  if (/^https?:\/\/[^\s{}]+$/i.test(value)) {
    try {
      return `${ORIGIN}${new URL(value).pathname.replace(/\/$/, '')}`;
    } catch {
      return undefined;
    }
  }
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}(:\d+)?$/i.test(value)) return ORIGIN.slice('http://'.length);
  return undefined;
}

/** A request URL pointed at the mock: a literal host replaced, an https:// before a variable made http://. */
function mockUrl(url) {
  const raw = typeof url === 'string' ? url : typeof url?.raw === 'string' ? url.raw : undefined;
  if (raw === undefined) return url;
  const literal = /^(?:https?:\/\/)?([^/{}?#:\s]+\.[^/{}?#:\s]+|localhost)(?::\d+)?(?=[/?#]|$)/i.exec(raw);
  if (literal) {
    const next = `${ORIGIN}${raw.slice(literal[0].length)}`;
    if (typeof url === 'string') return next;
    return {
      ...url,
      raw: next,
      protocol: 'http',
      host: ['127', '0', '0', '1'],
      port: ORIGIN.split(':')[2],
    };
  }
  if (/^https:\/\/\{\{/i.test(raw)) {
    const next = `http://${raw.slice('https://'.length)}`;
    return typeof url === 'string' ? next : { ...url, raw: next, protocol: 'http' };
  }
  return url;
}

function pointItems(items) {
  for (const item of items ?? []) {
    if (Array.isArray(item.item)) pointItems(item.item);
    if (typeof item.request === 'string') item.request = mockUrl(item.request);
    else if (item.request) item.request.url = mockUrl(item.request.url);
  }
}

function countRequests(items) {
  let n = 0;
  for (const item of items ?? []) {
    if (Array.isArray(item.item)) n += countRequests(item.item);
    else if (item.request !== undefined) n += 1;
  }
  return n;
}

const pct = (a, b) => (b === 0 ? 'n/a' : `${Math.round((a / b) * 1000) / 10} %`);
const totals = { total: 0, agreed: 0 };

for (const run of runs) {
  const name = basename(run.collection);
  console.log(
    `\n══ ${name}${run.environment ? ` + ${basename(run.environment)}` : ''}${run.data ? ` + ${basename(run.data)}` : ''}`,
  );
  const collection = JSON.parse(readFileSync(run.collection, 'utf8'));
  const envText = run.environment ? readFileSync(run.environment, 'utf8') : undefined;
  pointItems(collection.item);
  const pointed = join(work, `${totals.total}-${name}`);
  writeFileSync(pointed, JSON.stringify(collection));

  // As `--env-var`: every collection or environment variable holding a URL or a host, at the mock.
  const envVar = {};
  const envValues = envText ? (JSON.parse(envText).values ?? []) : [];
  for (const v of [...(collection.variable ?? []), ...envValues]) {
    const value = mockValue(v.value);
    if (typeof v.key === 'string' && value !== undefined) envVar[v.key] = value;
  }

  // a) The import.
  let imported;
  try {
    imported = postmanToFunctionalPlan(
      { name, text: JSON.stringify(collection) },
      {
        ...(envText ? { environment: { name: basename(run.environment), text: envText } } : {}),
        ...(run.data ? { data: { name: basename(run.data), text: readFileSync(run.data, 'utf8') } } : {}),
      },
    );
  } catch (error) {
    console.log(`  import refused: ${error instanceof Error ? error.message : String(error)}`);
    continue;
  }
  const { plan, postman, warnings } = imported;
  const requests = countRequests(collection.item);
  const captures = plan.apis.reduce((n, a) => n + (a.captures?.length ?? 0), 0);
  console.log(`  requests in the file ${requests}, APIs imported ${plan.apis.length}`);
  console.log(
    `  tests ${postman.tests}: → rules ${postman.rules}, → scripts ${postman.scripts}, → left out ${postman.left_out.length}`,
  );
  for (const l of postman.left_out) console.log(`    left out: ${l.request}, line ${l.line}: ${l.reason}`);
  console.log(`  captures ${captures}, warnings ${warnings.length}`);
  const byMessage = new Map();
  for (const w of warnings) {
    const list = byMessage.get(w.message) ?? [];
    list.push(w.location);
    byMessage.set(w.message, list);
  }
  for (const [message, where] of byMessage)
    console.log(
      `    ${where.length} × ${message} (${where.slice(0, 3).join('; ')}${where.length > 3 ? '; …' : ''})`,
    );
  if (Object.keys(envVar).length > 0)
    console.log(
      `  at the mock: ${Object.entries(envVar)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`,
    );

  // b) Newman, then ours.
  const newman = await runNewmanWithErrors({
    collection: pointed,
    ...(run.environment ? { environment: run.environment } : {}),
    ...(run.data ? { data: run.data } : {}),
    envVar,
  });
  // One iteration, or one per data row (the plan's iterations are the rows then, as newman -d).
  const parsed = FunctionalPlanSchema.safeParse({
    ...plan,
    think_time: 0,
    ...(run.data ? {} : { iterations: 1 }),
  });
  if (!parsed.success) {
    console.log(
      `  our plan is refused: ${parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
    continue;
  }
  const ours = parsed.data;
  const values = (ours.environment?.values ?? []).filter((v) => !(v.name in envVar));
  for (const [k, v] of Object.entries(envVar)) values.push({ name: k, value: v });
  ours.environment = { name: ours.environment?.name ?? 'mock', values };
  const calls = [];
  const end = await new FunctionalRunner(ours, {
    insecureTls: false,
    onCall: (j) => calls.push(j.call),
  }).run();

  // c) The comparison.
  const r = agreement(newman.outcomes, calls, newman.errors);
  totals.total += r.total;
  totals.agreed += r.agreed;
  console.log(
    `  Newman: ${newman.outcomes.length} assertions, ${newman.errors.length} other failures; ours: ${calls.length} calls` +
      `${end.error ? `, run ended: ${JSON.stringify(end.error)}` : ''}`,
  );
  for (const e of newman.errors.slice(0, 10)) console.log(`    Newman: ${e.source}: ${e.message}`);
  const ourErrors = calls.filter((c) => c.error);
  for (const c of ourErrors.slice(0, 10)) console.log(`    ours: ${c.api_name}: ${c.error}`);
  console.log(
    `  agreement ${r.agreed}/${r.total} (${pct(r.agreed, r.total)})` +
      (r.scriptErrors > 0 ? `; script errors on both sides, same message: ${r.scriptErrors}` : ''),
  );
  for (const d of r.disagree) console.log(`    ${describeDisagreement(d)}`);
}

console.log(`\nAll: ${totals.agreed}/${totals.total} assertions agree (${pct(totals.agreed, totals.total)})`);
if (refused.size > 0)
  console.log(`Refused (never sent): ${[...refused].map(([h, n]) => `${h} ×${n}`).join(', ')}`);
await new Promise((resolve) => mock.close(resolve));
rmSync(work, { recursive: true, force: true });
process.exit(0);
