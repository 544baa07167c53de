/**
 * An incremental CSV reader (RFC 4180 as JMeter's CSV writer and Python's csv module write it):
 * text is fed in arbitrary chunks, as a file grows, and only complete records come out, so a
 * record split across two reads — even inside a quoted field that holds a newline — is never cut.
 */
export class CsvStream {
  private field = '';
  private row: string[] = [];
  private quoted = false;
  /** A quote was just seen inside a quoted field: either the closing quote or the first of "". */
  private quoteSeen = false;
  private lastWasCr = false;

  constructor(private readonly delimiter = ',') {}

  /** Feeds text; returns the records it completed. */
  feed(text: string): string[][] {
    const out: string[][] = [];
    const d = this.delimiter;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      const afterCr = this.lastWasCr;
      this.lastWasCr = false;
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (ch === '"') {
            this.field += '"';
            continue;
          }
          this.quoted = false; // that quote closed the field; ch is handled below
        } else {
          if (ch === '"') this.quoteSeen = true;
          else this.field += ch;
          continue;
        }
      }
      if (ch === '\n') {
        if (!afterCr) this.endRow(out);
      } else if (ch === '\r') {
        this.endRow(out);
        this.lastWasCr = true;
      } else if (ch === d) this.endField();
      else if (ch === '"' && this.field === '') this.quoted = true;
      else this.field += ch;
    }
    return out;
  }

  /** The last record when the text did not end with a newline (call once the file is complete). */
  end(): string[][] {
    if (this.quoted && this.quoteSeen) {
      this.quoted = false;
      this.quoteSeen = false;
    }
    if (this.field === '' && this.row.length === 0) return [];
    const out: string[][] = [];
    this.endRow(out);
    return out;
  }

  private endField(): void {
    this.row.push(this.field);
    this.field = '';
  }

  private endRow(out: string[][]): void {
    this.endField();
    const row = this.row;
    this.row = [];
    // Blank lines carry no record.
    if (!(row.length === 1 && row[0] === '')) out.push(row);
  }
}

/** Parses a whole CSV text. */
export function parseCsvText(text: string, delimiter = ','): string[][] {
  const s = new CsvStream(delimiter);
  return [...s.feed(text), ...s.end()];
}

/** Column positions of a header row, by name. */
export function headerIndex(header: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  header.forEach((h, i) => m.set(h.trim(), i));
  return m;
}
