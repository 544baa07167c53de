import { Worker } from 'node:worker_threads';

/** What the target received, by path. */
export interface TargetCounts {
  total: number;
  byPath: Record<string, number>;
  /** The first few requests of each path: url and headers, to check what was sent. */
  samples: Record<string, { url: string; headers: Record<string, string | string[] | undefined> }[]>;
}

export interface CountingTarget {
  origin: string;
  counts(): Promise<TargetCounts>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/*
 * The target runs in its own worker thread, so a load test against it does not compete with the
 * server under test for the test's event loop, and "the API stays responsive" is measured fairly.
 * Plain JavaScript: eval'd worker code is not compiled by vitest.
 */
const TARGET_SOURCE = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const SAMPLES = 5;
let total = 0;
let byPath = {};
let samples = {};
const server = http.createServer((req, res) => {
  total++;
  const path = (req.url || '/').split('?')[0];
  byPath[path] = (byPath[path] || 0) + 1;
  const list = samples[path] || (samples[path] = []);
  if (list.length < SAMPLES) list.push({ url: req.url, headers: req.headers });
  req.resume();
  req.on('end', () => {
    const status = path.startsWith('/fail') ? 500 : 200;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: status === 200, path }));
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'listening', port: server.address().port }));
parentPort.on('message', (m) => {
  if (m.type === 'counts') parentPort.postMessage({ type: 'counts', total, byPath, samples });
  else if (m.type === 'reset') {
    total = 0;
    byPath = {};
    samples = {};
    parentPort.postMessage({ type: 'reset' });
  } else if (m.type === 'close') {
    server.closeAllConnections();
    server.close(() => parentPort.postMessage({ type: 'closed' }));
  }
});
`;

/** A local HTTP target on 127.0.0.1 that counts every request it receives (paths under /fail answer 500). */
export async function startCountingTarget(): Promise<CountingTarget> {
  const worker = new Worker(TARGET_SOURCE, { eval: true });
  const next = (type: string): Promise<Record<string, unknown>> =>
    new Promise((resolve) => {
      const onMessage = (m: Record<string, unknown>) => {
        if (m.type !== type) return;
        worker.off('message', onMessage);
        resolve(m);
      };
      worker.on('message', onMessage);
    });
  const { port } = (await next('listening')) as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    async counts() {
      const reply = next('counts');
      worker.postMessage({ type: 'counts' });
      const { total, byPath, samples } = (await reply) as unknown as TargetCounts;
      return { total, byPath, samples };
    },
    async reset() {
      const reply = next('reset');
      worker.postMessage({ type: 'reset' });
      await reply;
    },
    async close() {
      const reply = next('closed');
      worker.postMessage({ type: 'close' });
      await reply;
      await worker.terminate();
    },
  };
}
