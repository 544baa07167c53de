#!/usr/bin/env node
// A local target for the many-users bench: answers every request after a fixed delay and counts
// what it receives and how many connections are open. 127.0.0.1 only; ends itself after a lifetime.
//
//   node packages/engine/bench/delay-target.mjs [--port 18092] [--delay-ms 1000] [--lifetime-s 600]
//
// GET /__stats answers {requests, connections, peakConnections, inFlight, peakInFlight} at once
// (not counted); GET /__reset zeroes the counters. With --count-paths, GET /__paths answers how many
// requests each path (with its query) received, for the profile bench's flows and test data.
//
// A minimal HTTP/1.1 responder on node:net rather than node:http: ten thousand requests a second
// held for a second each cost node:http several times the CPU, and on a two-core machine the
// target would then measure itself instead of the load engine. It reads request heads (bodies are
// not expected: the bench sends GETs), keeps connections alive, and answers each request in order
// with the same small response.
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({
  options: {
    port: { type: 'string', default: '18092' },
    'delay-ms': { type: 'string', default: '1000' },
    'lifetime-s': { type: 'string', default: '600' },
    'count-paths': { type: 'boolean', default: false },
  },
});
const DELAY_MS = Number(opt['delay-ms']);
const stats = { requests: 0, connections: 0, peakConnections: 0, inFlight: 0, peakInFlight: 0 };
/** Requests per path (with its query), kept only with --count-paths. */
const paths = opt['count-paths'] ? new Map() : null;
const OK = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok');
const json = (body) =>
  Buffer.from(
    `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );

const server = createServer((socket) => {
  stats.connections++;
  if (stats.connections > stats.peakConnections) stats.peakConnections = stats.connections;
  socket.setNoDelay(true);
  let pending = '';
  socket.on('data', (chunk) => {
    pending += chunk.latin1Slice(0, chunk.length);
    for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
      const head = pending.slice(0, end);
      pending = pending.slice(end + 4);
      const path = head.slice(head.indexOf(' ') + 1, head.indexOf(' ', head.indexOf(' ') + 1));
      if (path === '/__stats') {
        socket.write(json(JSON.stringify(stats)));
        continue;
      }
      if (path === '/__paths') {
        socket.write(json(JSON.stringify(Object.fromEntries(paths ?? []))));
        continue;
      }
      if (path === '/__reset') {
        paths?.clear();
        stats.requests = 0;
        stats.peakConnections = stats.connections;
        stats.inFlight = 0;
        stats.peakInFlight = 0;
        socket.write(json('"reset"'));
        continue;
      }
      stats.requests++;
      paths?.set(path, (paths.get(path) ?? 0) + 1);
      stats.inFlight++;
      if (stats.inFlight > stats.peakInFlight) stats.peakInFlight = stats.inFlight;
      setTimeout(() => {
        stats.inFlight--;
        if (!socket.destroyed) socket.write(OK);
      }, DELAY_MS);
    }
  });
  socket.on('error', () => undefined);
  socket.on('close', () => stats.connections--);
});
// A deep accept queue: thousands of users connect within the same second (the kernel caps it at
// net.core.somaxconn).
server.listen({ port: Number(opt.port), host: '127.0.0.1', backlog: 65_535 }, () => {
  process.stdout.write(`delay-target on 127.0.0.1:${opt.port}, ${DELAY_MS} ms\n`);
});
setTimeout(() => process.exit(0), Number(opt['lifetime-s']) * 1000).unref();
process.on('SIGTERM', () => process.exit(0));
