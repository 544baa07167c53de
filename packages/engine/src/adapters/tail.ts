import { open, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/**
 * Reads what a tool appended to a result file since the last read (the file may not exist yet).
 * UTF-8 characters split between two reads are kept whole. Reads are asynchronous, in chunks of
 * `chunkBytes`.
 */
export class FileTail {
  private handle: FileHandle | undefined;
  private position = 0;
  private readonly decoder = new StringDecoder('utf8');
  private readonly buffer: Buffer;

  constructor(
    readonly path: string,
    chunkBytes = 1 << 20,
  ) {
    this.buffer = Buffer.allocUnsafe(chunkBytes);
  }

  /** New text since the last call ('' when nothing new or no file yet). */
  async read(): Promise<string> {
    if (!this.handle) {
      try {
        this.handle = await open(this.path, 'r');
      } catch {
        return '';
      }
    }
    let text = '';
    for (;;) {
      const { bytesRead } = await this.handle.read(this.buffer, 0, this.buffer.length, this.position);
      if (bytesRead === 0) break;
      this.position += bytesRead;
      text += this.decoder.write(this.buffer.subarray(0, bytesRead));
      if (bytesRead < this.buffer.length) break;
    }
    return text;
  }

  /** Whether the file has been seen. */
  get opened(): boolean {
    return this.handle !== undefined;
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = undefined;
    await h?.close();
  }
}
