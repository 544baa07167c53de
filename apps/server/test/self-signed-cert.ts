import { generateKeyPairSync, sign } from 'node:crypto';

/*
 * A self-signed X.509 certificate made at test time with node:crypto alone (no openssl binary, no
 * certificate file in the repository): an EC P-256 key, and a version-1 certificate for CN=localhost
 * valid for a day, written in DER by the few ASN.1 encoders below and signed with ECDSA-SHA256.
 */

function der(tag: number, content: Buffer): Buffer {
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
  return Buffer.concat([Buffer.from([tag, 0x80 | bytes.length, ...bytes]), content]);
}

const sequence = (...items: Buffer[]) => der(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => der(0x31, Buffer.concat(items));
const utf8String = (text: string) => der(0x0c, Buffer.from(text, 'utf8'));
const bitString = (bytes: Buffer) => der(0x03, Buffer.concat([Buffer.from([0]), bytes]));

function integer(value: number): Buffer {
  const bytes: number[] = [];
  for (let n = value; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  if (bytes.length === 0 || (bytes[0] ?? 0) >= 0x80) bytes.unshift(0);
  return der(0x02, Buffer.from(bytes));
}

function objectId(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const base128: number[] = [arc & 0x7f];
    for (let n = arc >> 7; n > 0; n >>= 7) base128.unshift(0x80 | (n & 0x7f));
    bytes.push(...base128);
  }
  return der(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z';
  return der(0x17, Buffer.from(text, 'ascii'));
}

export function selfSignedCertificate(): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const ecdsaWithSha256 = sequence(objectId('1.2.840.10045.4.3.2'));
  const name = sequence(set(sequence(objectId('2.5.4.3'), utf8String('localhost'))));
  const now = Date.now();
  const tbs = sequence(
    integer(now % 1_000_000_000),
    ecdsaWithSha256,
    name,
    sequence(utcTime(new Date(now - 3600_000)), utcTime(new Date(now + 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const certificate = sequence(tbs, ecdsaWithSha256, bitString(sign('sha256', tbs, privateKey)));
  const base64 = certificate.toString('base64').replace(/.{64}/g, '$&\n');
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${base64.trimEnd()}\n-----END CERTIFICATE-----\n`,
  };
}
