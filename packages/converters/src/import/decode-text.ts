/**
 * Bytes of an uploaded text file → text. UTF-8 (with or without a byte-order mark) and UTF-16 LE/BE (with a
 * BOM, or recognised by the zero bytes of ASCII text without one) are read; bytes that are not valid UTF-8
 * are read as Windows-1252, which is what spreadsheet programs write on Windows.
 */

export type TextEncodingName = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
}

interface TextDecoderLike {
  decode(input: Uint8Array): string;
}
type TextDecoderConstructor = new (label: string, options?: { fatal?: boolean }) => TextDecoderLike;

// TextDecoder is in every browser and in Node; the package compiles without DOM or Node types, so it is
// reached through globalThis with the little of its type that is used here.
const Decoder = (globalThis as unknown as { TextDecoder: TextDecoderConstructor }).TextDecoder;

export function decodeText(bytes: Uint8Array): DecodedText {
  const [b0, b1, b2] = [bytes[0], bytes[1], bytes[2]];
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) {
    return { text: decodeUtf8(bytes.subarray(3)), encoding: 'utf-8-bom' };
  }
  if (b0 === 0xff && b1 === 0xfe) {
    return { text: new Decoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  }
  if (b0 === 0xfe && b1 === 0xff) {
    return { text: new Decoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  }
  const unmarked = unmarkedUtf16(bytes);
  if (unmarked) return { text: new Decoder(unmarked).decode(bytes), encoding: unmarked };
  try {
    return { text: new Decoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: decodeWindows1252(bytes), encoding: 'windows-1252' };
  }
}

/** 0x80–0x9F of Windows-1252; the other bytes are their Latin-1 code points. */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

// By hand rather than TextDecoder('windows-1252'), which some Node versions decode as Latin-1.
function decodeWindows1252(bytes: Uint8Array): string {
  const chunks: string[] = [];
  for (let start = 0; start < bytes.length; start += 8192) {
    const codes = Array.from(bytes.subarray(start, start + 8192), (b) =>
      b >= 0x80 && b <= 0x9f ? CP1252_HIGH.charCodeAt(b - 0x80) : b,
    );
    chunks.push(String.fromCharCode(...codes));
  }
  return chunks.join('');
}

/** A BOM left at the start of text that was decoded elsewhere. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function decodeUtf8(bytes: Uint8Array): string {
  return new Decoder('utf-8').decode(bytes);
}

/**
 * ASCII text in UTF-16 without a BOM has a zero in every other byte; JSON, YAML, CSV and cURL documents
 * start with ASCII, so the first bytes tell the byte order.
 */
function unmarkedUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const sample = Math.min(bytes.length - (bytes.length % 2), 64);
  if (sample < 4) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = sample / 2;
  // A few non-ASCII characters among the first 32 are allowed for; in a short file, at most a quarter
  // ("true", four bytes without a zero, is ASCII, not two UTF-16 characters).
  const needed = pairs - Math.min(2, Math.floor(pairs / 4));
  if (oddZeros >= needed && evenZeros === 0) return 'utf-16le';
  if (evenZeros >= needed && oddZeros === 0) return 'utf-16be';
  return undefined;
}
