import {
  type Document,
  LineCounter,
  type Node,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  parseAllDocuments,
} from 'yaml';
import { stripBom } from '../decode-text';
import { MAX_NESTING, textNestsTooDeep } from '../nesting';
import { TaurusScriptError } from './taurus-model';

/*
 * A Taurus configuration as plain values, with the line each key and list item was written on, and its
 * several YAML documents merged as Taurus merges configs (docs/reference/02-running.md §3 "Taurus
 * scripts"): maps merge key by key, lists are extended, a later scalar replaces an earlier one, a key
 * written `~key` replaces instead of merging and `^key` deletes. The values are built here rather than by
 * the yaml library's toJS so every node keeps its line; aliases are expanded with the same limits as
 * the other importers (read-document.ts): a bounded count and a bounded depth.
 */

export type Plain = string | number | boolean | null | PlainMap | Plain[];
export interface PlainMap {
  [key: string]: Plain;
}

/** The line (1-based) of each key of a map or item of a list, by the container. */
export type LineTable = WeakMap<object, Map<string | number, number>>;

/** Where a key of a map (or an index of a list) is written, as a warning or a source carries it. */
export function lineOf(lines: LineTable, container: object, key: string | number): { line?: number } {
  const line = lines.get(container)?.get(key);
  return line === undefined ? {} : { line };
}

export interface YamlTree {
  /** The merged documents (a map), or null when none holds a map. */
  root: PlainMap | null;
  lines: LineTable;
  /** Documents that hold something other than a map, by their first line: Taurus cannot read them. */
  notMaps: { index: number; line: number }[];
}

/** A script that cannot be read as YAML at all; `line` where the parser says. */
export class YamlReadError extends Error {
  override readonly name = 'YamlReadError';
  constructor(
    message: string,
    readonly line: number | undefined,
  ) {
    super(message);
  }
}

/**
 * A Taurus script's text (a byte-order mark dropped) as a YAML tree, for the Taurus and the Selenium
 * readers alike: empty text, or text that is not YAML, is a TaurusScriptError with the parser's line.
 */
export function readTaurusTree(source: string): YamlTree {
  const text = stripBom(source);
  if (text.trim() === '') throw new TaurusScriptError('Script content is required');
  try {
    return readYamlTree(text);
  } catch (error) {
    if (error instanceof YamlReadError) throw new TaurusScriptError(error.message, [], error.line);
    throw error;
  }
}

/** The yaml library's measure: an alias counts the nodes it expands to. */
const MAX_ALIAS_NODES = 1000;

export function readYamlTree(text: string): YamlTree {
  if (textNestsTooDeep(text)) throw tooDeep();
  const lineCounter = new LineCounter();
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocuments(text, {
      lineCounter,
      uniqueKeys: false,
      prettyErrors: true,
    }) as Document.Parsed[];
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep();
    throw error;
  }
  if (!Array.isArray(docs)) docs = [docs];
  const lines: LineTable = new WeakMap();
  const lineAt = (node: { range?: [number, number, number] | null | undefined } | null | undefined) =>
    node?.range ? lineCounter.linePos(node.range[0]).line : undefined;

  for (const doc of docs) {
    const [error] = doc.errors;
    if (!error) continue;
    const where = error.linePos?.[0];
    if (error.message.includes('Maximum call stack size exceeded')) throw tooDeep();
    const reason =
      error.message
        .split(/ at line \d+, column \d+/)[0]
        ?.split('\n')[0]
        ?.trim() ?? error.message;
    throw new YamlReadError(
      where
        ? `YAML syntax error at line ${where.line}, column ${where.col}: ${reason}`
        : `YAML syntax error: ${reason}`,
      where?.line,
    );
  }

  let root: PlainMap | null = null;
  const notMaps: YamlTree['notMaps'] = [];
  docs.forEach((doc, index) => {
    if (doc.contents === null) return;
    const budget = { aliasNodes: 0 };
    const value = build(doc, doc.contents, 0, budget, lines, lineAt);
    if (!isPlainMap(value)) {
      notMaps.push({ index, line: lineAt(doc.contents) ?? 1 });
      return;
    }
    root = root === null ? value : mergeInto(root, value, lines);
  });
  return { root, lines, notMaps };
}

function tooDeep(): YamlReadError {
  return new YamlReadError(
    `the script is nested too deeply to read: lists or maps go more than ${MAX_NESTING} levels inside each other`,
    undefined,
  );
}

function build(
  doc: Document.Parsed,
  node: Node | null,
  depth: number,
  budget: { aliasNodes: number },
  lines: LineTable,
  lineAt: (node: Node) => number | undefined,
  inAlias = false,
): Plain {
  if (depth > MAX_NESTING) throw tooDeep();
  if (node === null) return null;
  if (inAlias && ++budget.aliasNodes > MAX_ALIAS_NODES) {
    throw new YamlReadError(
      `its aliases (*name) expand to more than ${MAX_ALIAS_NODES} nodes, which is how a YAML "alias bomb" exhausts a server; write the repeated parts out`,
      lineAt(node),
    );
  }
  if (isAlias(node)) {
    const target = node.resolve(doc);
    if (target === undefined) {
      throw new YamlReadError(
        `an alias (*${node.source}) refers to an anchor that is not set before it`,
        lineAt(node),
      );
    }
    return build(doc, target, depth + 1, budget, lines, lineAt, true);
  }
  if (isScalar(node)) return scalarValue(node.value);
  if (isMap(node)) {
    const out: PlainMap = {};
    const table = new Map<string | number, number>();
    for (const pair of node.items) {
      const keyNode = pair.key as Node | null;
      const key =
        keyNode === null ? '' : keyText(build(doc, keyNode, depth + 1, budget, lines, lineAt, inAlias));
      const value = build(doc, pair.value as Node | null, depth + 1, budget, lines, lineAt, inAlias);
      // A YAML merge key (<<) is a key like any other in YAML 1.2; Taurus reads it as one too.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      const line = (keyNode && lineAt(keyNode)) ?? lineAt(node);
      if (line !== undefined) table.set(key, line);
    }
    lines.set(out, table);
    return out;
  }
  if (isSeq(node)) {
    const out: Plain[] = [];
    const table = new Map<string | number, number>();
    node.items.forEach((item, i) => {
      out.push(build(doc, item as Node | null, depth + 1, budget, lines, lineAt, inAlias));
      const line = lineAt(item as Node) ?? lineAt(node);
      if (line !== undefined) table.set(i, line);
    });
    lines.set(out, table);
    return out;
  }
  return null;
}

function scalarValue(value: unknown): Plain {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  // !!binary bytes and other tagged scalars are no Taurus value; the reader reports where they are used.
  return null;
}

function keyText(key: Plain): string {
  if (key === null) return '';
  if (typeof key === 'object') return JSON.stringify(key);
  return String(key);
}

export function isPlainMap(value: unknown): value is PlainMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Taurus's merge of a later document into an earlier one (see the top of this file). */
function mergeInto(target: PlainMap, source: PlainMap, lines: LineTable): PlainMap {
  const targetLines = lines.get(target) ?? new Map<string | number, number>();
  lines.set(target, targetLines);
  const sourceLines = lines.get(source);
  for (const [rawKey, value] of Object.entries(source)) {
    const line = sourceLines?.get(rawKey);
    if (rawKey.startsWith('^')) {
      delete target[rawKey.slice(1)];
      targetLines.delete(rawKey.slice(1));
      continue;
    }
    const replace = rawKey.startsWith('~');
    const key = replace ? rawKey.slice(1) : rawKey;
    const current = Object.hasOwn(target, key) ? target[key] : undefined;
    let merged: Plain;
    if (!replace && isPlainMap(current) && isPlainMap(value)) merged = mergeInto(current, value, lines);
    else if (!replace && Array.isArray(current) && Array.isArray(value)) {
      merged = appendList(current, value, lines);
    } else merged = value;
    Object.defineProperty(target, key, {
      value: merged,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (line !== undefined && merged === value) targetLines.set(key, line);
  }
  return target;
}

function appendList(target: Plain[], source: Plain[], lines: LineTable): Plain[] {
  const targetLines = lines.get(target) ?? new Map<string | number, number>();
  lines.set(target, targetLines);
  const sourceLines = lines.get(source);
  source.forEach((item, i) => {
    const line = sourceLines?.get(i);
    if (line !== undefined) targetLines.set(target.length, line);
    target.push(item);
  });
  return target;
}
