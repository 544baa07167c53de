import { strFromU8, strToU8, type UnzipFileInfo, unzipSync, zipSync } from 'fflate';
import { ImportError, type ImportResult } from './import-model';
import { type ImportSource, sourceName } from './read-document';
import { SAMPLE_TABLE } from './csv-to-plan';
import { tableToPlan } from './table-to-plan';

/**
 * Excel workbooks (.xlsx, Office Open XML) in the table layout of table-to-plan.ts → plan steps, from the
 * first worksheet. The reader is our own, small and browser-safe: fflate unzips the workbook and the few
 * XML parts needed (workbook, its relationships, shared strings, the sheet) are read by pattern, which is
 * enough for cell values. Formulas give their cached values.
 */

/** Uncompressed bytes a workbook may expand to; a larger one is refused rather than unpacked. */
const MAX_UNZIPPED_BYTES = 200 * 1024 * 1024;

export function xlsxToPlan(source: ImportSource): ImportResult {
  const file = sourceName(source);
  if (source.bytes === undefined)
    throw new ImportError(file, 'an Excel workbook must be read from its bytes, not text');
  return tableToPlan(readXlsxRows(source.bytes, file), file, 'excel');
}

/** The first worksheet's cells as rows of text (blank cells are ""). */
export function readXlsxRows(bytes: Uint8Array, file = 'the workbook'): string[][] {
  if (bytes.length === 0) throw new ImportError(file, 'the file is empty');
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    throw new ImportError(
      file,
      'this is an Excel 97-2003 workbook (.xls), which is not supported; save it as .xlsx or CSV',
    );
  }
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    throw new ImportError(file, 'this is not an Excel workbook (.xlsx): it is not a ZIP archive');
  }
  let total = 0;
  let parts: Record<string, Uint8Array>;
  try {
    parts = unzipSync(bytes, {
      filter: (entry: UnzipFileInfo) => {
        const wanted =
          entry.name === 'xl/workbook.xml' ||
          entry.name === 'xl/_rels/workbook.xml.rels' ||
          entry.name === 'xl/sharedStrings.xml' ||
          entry.name.startsWith('xl/worksheets/');
        if (wanted) total += entry.originalSize;
        if (total > MAX_UNZIPPED_BYTES) {
          throw new ImportError(
            file,
            `the workbook unpacks to more than ${MAX_UNZIPPED_BYTES / 1024 / 1024} MB`,
          );
        }
        return wanted;
      },
    });
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(file, 'this is not a readable Excel workbook: the ZIP archive is damaged', {
      cause: error,
    });
  }
  const text = (name: string) => {
    const part = parts[name];
    return part === undefined ? undefined : strFromU8(part);
  };
  const workbook = text('xl/workbook.xml');
  if (workbook === undefined)
    throw new ImportError(file, 'this is not an Excel workbook (.xlsx): it has no xl/workbook.xml');
  const sheetPath = firstSheetPath(workbook, text('xl/_rels/workbook.xml.rels'));
  const sheet = text(sheetPath) ?? text('xl/worksheets/sheet1.xml');
  if (sheet === undefined) throw new ImportError(file, 'the workbook has no worksheet');
  return sheetRows(sheet, sharedStrings(text('xl/sharedStrings.xml')));
}

function firstSheetPath(workbook: string, rels: string | undefined): string {
  const sheet = /<(?:\w+:)?sheet\b[^>]*>/.exec(workbook)?.[0] ?? '';
  const id = /\br:id="([^"]+)"/.exec(sheet)?.[1] ?? /\bid="([^"]+)"/.exec(sheet)?.[1];
  if (id && rels) {
    for (const rel of rels.match(/<(?:\w+:)?Relationship\b[^>]*>/g) ?? []) {
      if (attribute(rel, 'Id') !== id) continue;
      const target = attribute(rel, 'Target') ?? '';
      return target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
    }
  }
  return 'xl/worksheets/sheet1.xml';
}

function sharedStrings(xml: string | undefined): string[] {
  if (xml === undefined) return [];
  const strings: string[] = [];
  for (const item of xml.match(/<(?:\w+:)?si\b[^>]*>[\s\S]*?<\/(?:\w+:)?si>|<(?:\w+:)?si\s*\/>/g) ?? []) {
    strings.push(runText(item.replace(/<(?:\w+:)?rPh\b[\s\S]*?<\/(?:\w+:)?rPh>/g, '')));
  }
  return strings;
}

/** The text of every <t> in an element (rich text has several runs). */
function runText(xml: string): string {
  let out = '';
  for (const match of xml.matchAll(/<(?:\w+:)?t\b[^>]*>([\s\S]*?)<\/(?:\w+:)?t>/g))
    out += decodeXml(match[1] ?? '');
  return out;
}

function sheetRows(xml: string, shared: readonly string[]): string[][] {
  const rows: string[][] = [];
  let nextRow = 0;
  for (const rowMatch of xml.matchAll(/<(?:\w+:)?row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?row>)/g)) {
    const rowNumber = Number(attribute(rowMatch[1] ?? '', 'r'));
    const rowIndex = Number.isInteger(rowNumber) && rowNumber > 0 ? rowNumber - 1 : nextRow;
    nextRow = rowIndex + 1;
    const cells: string[] = [];
    let nextColumn = 0;
    for (const cellMatch of (rowMatch[2] ?? '').matchAll(
      /<(?:\w+:)?c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g,
    )) {
      const attrs = cellMatch[1] ?? '';
      const ref = attribute(attrs, 'r');
      const column = ref ? columnIndex(ref) : nextColumn;
      nextColumn = column + 1;
      cells[column] = cellValue(attribute(attrs, 't'), cellMatch[2] ?? '', shared);
    }
    rows[rowIndex] = Array.from(cells, (c) => c ?? '');
  }
  return Array.from(rows, (r) => r ?? []);
}

function cellValue(type: string | undefined, inner: string, shared: readonly string[]): string {
  const v = /<(?:\w+:)?v\b[^>]*>([\s\S]*?)<\/(?:\w+:)?v>/.exec(inner)?.[1];
  switch (type) {
    case 's':
      return shared[Number(v)] ?? '';
    case 'inlineStr':
      return runText(inner);
    case 'b':
      return v === '1' ? 'TRUE' : v === '0' ? 'FALSE' : '';
    default:
      return v === undefined ? '' : decodeXml(v);
  }
}

/** "AB12" → 27 (0-based column). */
function columnIndex(ref: string): number {
  let n = 0;
  for (const ch of ref.toUpperCase()) {
    const code = ch.charCodeAt(0);
    if (code < 65 || code > 90) break;
    n = n * 26 + (code - 64);
  }
  return Math.max(0, n - 1);
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}="([^"]*)"`).exec(tag);
  return match?.[1] === undefined ? undefined : decodeXml(match[1]);
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text
    .replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, entity: string) => {
      if (entity.startsWith('#x')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
      if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
      return ENTITIES[entity] ?? whole;
    })
    .replace(/_x([0-9A-Fa-f]{4})_/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot' }[c] ?? 'amp'};`);
}

/** rows → a minimal .xlsx (one sheet, inline strings); used for the downloadable sample and in tests. */
export function writeXlsx(rows: readonly (readonly string[])[], sheetName = 'APIs'): Uint8Array {
  const letters = (i: number): string => {
    let s = '';
    for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
    return s;
  };
  const sheetRowsXml = rows
    .map(
      (row, r) =>
        `<row r="${r + 1}">${row
          .map((value, c) =>
            value === ''
              ? ''
              : `<c r="${letters(c)}${r + 1}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(value)}</t></is></c>`,
          )
          .join('')}</row>`,
    )
    .join('');
  const xml = (body: string) => strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`);
  return zipSync({
    '[Content_Types].xml': xml(
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '</Types>',
    ),
    '_rels/.rels': xml(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
        '</Relationships>',
    ),
    'xl/workbook.xml': xml(
      '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
        `<sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': xml(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
        '</Relationships>',
    ),
    'xl/worksheets/sheet1.xml': xml(
      `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetRowsXml}</sheetData></worksheet>`,
    ),
  });
}

/** An .xlsx file in the import layout, for the screen to offer as a download (sample.xlsx). */
export function sampleXlsx(): Uint8Array {
  return writeXlsx(SAMPLE_TABLE);
}
