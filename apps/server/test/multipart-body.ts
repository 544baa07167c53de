import { randomBytes } from 'node:crypto';

/** One part of a multipart/form-data body; `filename` makes it a file part. */
export interface Part {
  name: string;
  filename?: string;
  content: Buffer | string;
}

/** A multipart/form-data body as a browser's FormData writes it, with its Content-Type header. */
export function multipartBody(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----aqa-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined)
      head += `; filename="${part.filename}"\r\nContent-Type: application/octet-stream`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`), Buffer.from(part.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
