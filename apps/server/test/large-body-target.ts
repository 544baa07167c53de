import { Worker } from 'node:worker_threads';

/*
 * A local target whose every answer is a large JSON body, for the memory bounds of
 * docs/adr/0024-memory-bounds.md: `GET /any/path?kb=N` answers 500 with an N KB JSON document
 * ({"items":[…]}), built once per size. It runs in its own worker thread, so serving hundreds of
 * megabytes does not compete with the test for its event loop, and counts the requests it answered.
 * Plain JavaScript: eval'd worker code is not compiled by vitest.
 */
const TARGET_SOURCE = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const bodies = new Map();
let total = 0;
function body(kb) {
  let b = bodies.get(kb);
  if (b === undefined) {
    const item = JSON.stringify({ id: 1, name: 'x'.repeat(90) });
    const count = Math.max(1, Math.floor((kb * 1024) / (item.length + 1)));
    b = Buffer.from('{"items":[' + Array(count).fill(item).join(',') + ']}');
    bodies.set(kb, b);
  }
  return b;
}
const server = http.createServer((req, res) => {
  total++;
  const kb = Number(new URL(req.url, 'http://target').searchParams.get('kb') || 1024);
  req.resume();
  req.on('end', () => {
    const b = body(kb);
    res.writeHead(500, { 'content-type': 'application/json', 'content-length': b.length });
    res.end(b);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'listening', port: server.address().port }));
parentPort.on('message', (m) => {
  if (m.type === 'count') parentPort.postMessage({ type: 'count', total });
  else if (m.type === 'close') {
    server.closeAllConnections();
    server.close(() => parentPort.postMessage({ type: 'closed' }));
  }
});
`;

export interface LargeBodyTarget {
  origin: string;
  /** Requests answered so far. */
  count(): Promise<number>;
  close(): Promise<void>;
}

export async function startLargeBodyTarget(): Promise<LargeBodyTarget> {
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
    async count() {
      const reply = next('count');
      worker.postMessage({ type: 'count' });
      return (await reply).total as number;
    },
    async close() {
      const reply = next('closed');
      worker.postMessage({ type: 'close' });
      await reply;
      await worker.terminate();
    },
  };
}
