import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether the openssl binary the self-signed target needs is on this machine. */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** An HTTPS target on 127.0.0.1 that answers "secure" and counts what it served. */
export interface SelfSignedTarget {
  /** `https://127.0.0.1:{port}` */
  origin: string;
  /** Requests answered so far: a refused handshake serves none. */
  served(): number;
  close(): void;
}

/**
 * Starts an HTTPS target with a certificate openssl makes for the test (self-signed, CN=127.0.0.1,
 * valid a day), for the checks that a self-signed target is refused unless insecureTls is set.
 */
export async function startSelfSignedTarget(): Promise<SelfSignedTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'aqa-tls-'));
  let key: Buffer;
  let cert: Buffer;
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'].concat([
        '-keyout',
        join(dir, 'k.pem'),
        '-out',
        join(dir, 'c.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ]),
      { stdio: 'ignore' },
    );
    key = readFileSync(join(dir, 'k.pem'));
    cert = readFileSync(join(dir, 'c.pem'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  let served = 0;
  const server = createServer({ key, cert }, (_req, res) => {
    served++;
    res.end('secure');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served: () => served,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
