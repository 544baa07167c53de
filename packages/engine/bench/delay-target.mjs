#!/usr/bin/env node
// A local target for the many-users bench: answers every request after a fixed delay and counts
// what it receives and how many connections are open. 127.0.0.1 only; ends itself after a lifetime.
//
//   node packages/engine/bench/delay-target.mjs [--port 18092] [--delay-ms 1000] [--lifetime-s 600]
//
// GET /__stats answers {requests, connections, peakConnections, inFlight, peakInFlight} at once
// (not counted); GET /__reset zeroes the counters.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({
  options: {
    port: { type: 'string', default: '18092' },
    'delay-ms': { type: 'string', default: '1000' },
    'lifetime-s': { type: 'string', default: '600' },
  },
});
const DELAY_MS = Number(opt['delay-ms']);
const stats = { requests: 0, connections: 0, peakConnections: 0, inFlight: 0, peakInFlight: 0 };

const server = createServer((req, res) => {
  if (req.url === '/__stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(stats));
    return;
  }
  if (req.url === '/__reset') {
    stats.requests = 0;
    stats.peakConnections = stats.connections;
    stats.inFlight = 0;
    stats.peakInFlight = 0;
    res.end('reset');
    return;
  }
  stats.requests++;
  stats.inFlight++;
  if (stats.inFlight > stats.peakInFlight) stats.peakInFlight = stats.inFlight;
  // The request body (if any) is drained; the answer is the same small body every time.
  req.resume();
  setTimeout(() => {
    stats.inFlight--;
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
  }, DELAY_MS);
});
// Every virtual user keeps one connection open for the whole run.
server.keepAliveTimeout = 120_000;
server.headersTimeout = 130_000;
server.requestTimeout = 0;
server.maxRequestsPerSocket = 0;
server.on('connection', (socket) => {
  stats.connections++;
  if (stats.connections > stats.peakConnections) stats.peakConnections = stats.connections;
  socket.on('close', () => stats.connections--);
});
// A deep accept queue: ten thousand users connect in the same few milliseconds (the kernel caps
// it at net.core.somaxconn).
server.listen({ port: Number(opt.port), host: '127.0.0.1', backlog: 65_535 }, () => {
  process.stdout.write(`delay-target on 127.0.0.1:${opt.port}, ${DELAY_MS} ms\n`);
});
setTimeout(() => process.exit(0), Number(opt['lifetime-s']) * 1000).unref();
process.on('SIGTERM', () => process.exit(0));
