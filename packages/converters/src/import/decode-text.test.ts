import { describe, expect, it } from 'vitest';
import { fixture } from '../../test/fixtures';
import { decodeText } from './decode-text';

const utf16 = (text: string, littleEndian: boolean, bom: boolean) => {
  const bytes: number[] = bom ? (littleEndian ? [0xff, 0xfe] : [0xfe, 0xff]) : [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes.push(...(littleEndian ? [code & 0xff, code >> 8] : [code >> 8, code & 0xff]));
  }
  return new Uint8Array(bytes);
};

describe('decodeText', () => {
  const text = '{"name": "Grüße, 世界"}';

  it('reads UTF-8 with and without a byte-order mark', () => {
    const plain = new TextEncoder().encode(text);
    expect(decodeText(plain)).toEqual({ text, encoding: 'utf-8' });
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...plain]))).toEqual({ text, encoding: 'utf-8-bom' });
  });

  it('reads UTF-16 little- and big-endian, with a BOM or recognised without one', () => {
    expect(decodeText(utf16(text, true, true))).toEqual({ text, encoding: 'utf-16le' });
    expect(decodeText(utf16(text, false, true))).toEqual({ text, encoding: 'utf-16be' });
    expect(decodeText(utf16(text, true, false))).toEqual({ text, encoding: 'utf-16le' });
    expect(decodeText(utf16(text, false, false))).toEqual({ text, encoding: 'utf-16be' });
  });

  it('reads a short ASCII file as UTF-8, not as UTF-16 without zeros', () => {
    for (const text of ['true', 'null', '42.5', '{}[]'])
      expect(decodeText(new TextEncoder().encode(text))).toEqual({ text, encoding: 'utf-8' });
  });

  it('reads bytes that are not UTF-8 as Windows-1252, as spreadsheet programs write them', () => {
    expect(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x2c, 0x80]))).toEqual({
      text: 'café,€',
      encoding: 'windows-1252',
    });
  });

  it("reads newman's UTF-16 LE environment fixture", () => {
    const decoded = decodeText(
      fixture('postman/newman/bom-and-encoding/utf16-le-encoding-in-env.postman_environment.json').bytes,
    );
    expect(decoded.encoding).toBe('utf-16le');
    expect((JSON.parse(decoded.text) as { values: unknown[] }).values).toHaveLength(4);
  });
});
