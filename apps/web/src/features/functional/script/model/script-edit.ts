import { isMap, isScalar, isSeq, parseAllDocuments, type Document } from 'yaml';

/**
 * The Parsed APIs list edits the script itself (docs/reference/02-running.md §2 "Functional Script Input
 * screen"): moving or deleting an API moves or deletes its request where the script writes it (the path
 * the Taurus reader names), and "Add Authorization Header" writes the header into every request. The
 * YAML is edited as a document, so comments and everything the list does not show stay as written; the
 * script is then read again and the list follows. Each function answers the new script text, or throws
 * an Error naming why the edit cannot be made.
 */

type PathPart = string | number;

/** "scenarios.login.requests[2]" or 'scenarios["my api"].requests[0]' → its parts. */
export function parseYamlPath(path: string): PathPart[] {
  const parts: PathPart[] = [];
  const pattern = /(?:^|\.)([A-Za-z0-9_-]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/gy;
  let match: RegExpExecArray | null;
  let at = 0;
  while (at < path.length && (match = pattern.exec(path)) !== null) {
    if (match[1] !== undefined) parts.push(match[1]);
    else if (match[2] !== undefined) parts.push(Number(match[2]));
    else if (match[3] !== undefined) parts.push(JSON.parse(match[3]) as string);
    at = pattern.lastIndex;
  }
  if (at !== path.length) throw new Error(`Cannot find ${path} in the script`);
  return parts;
}

interface Located {
  docs: Document.Parsed[];
  doc: Document.Parsed;
  parts: PathPart[];
}

function locate(text: string, path: string): Located {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) throw new Error('The script is empty');
  const parts = parseYamlPath(path);
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new Error(doc.errors[0]?.message ?? 'The script is not valid YAML');
    if (doc.hasIn(parts)) return { docs, doc, parts };
  }
  throw new Error(`Cannot find ${path} in the script`);
}

function written(docs: Document.Parsed[]): string {
  return docs.map((doc) => doc.toString()).join('');
}

/** The list a request sits in and its index there. */
function parentOf(located: Located): { list: PathPart[]; index: number } {
  const index = located.parts[located.parts.length - 1];
  if (typeof index !== 'number') throw new Error('This API is not an item of a requests list');
  return { list: located.parts.slice(0, -1), index };
}

export function deleteRequest(text: string, path: string): string {
  const located = locate(text, path);
  located.doc.deleteIn(located.parts);
  return written(located.docs);
}

/** Swaps two requests of one requests list (an API written in an included scenario moves there). */
export function swapRequests(text: string, path: string, otherPath: string): string {
  const located = locate(text, path);
  const other = parseYamlPath(otherPath);
  const { list, index } = parentOf(located);
  const otherIndex = other[other.length - 1];
  if (typeof otherIndex !== 'number' || JSON.stringify(other.slice(0, -1)) !== JSON.stringify(list)) {
    throw new Error('These APIs are written in different request lists of the script');
  }
  const seq = located.doc.getIn(list, true);
  if (!isSeq(seq)) throw new Error('This API is not an item of a requests list');
  const a = seq.items[index];
  const b = seq.items[otherIndex];
  seq.items[index] = b;
  seq.items[otherIndex] = a;
  return written(located.docs);
}

/** Writes `Authorization: value` into each request; a request written as a plain URL becomes `url: …`. */
export function setAuthorizationHeader(text: string, paths: readonly string[], value: string): string {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) throw new Error('The script is empty');
  for (const path of paths) {
    const parts = parseYamlPath(path);
    const doc = docs.find((item) => item.hasIn(parts));
    if (!doc) throw new Error(`Cannot find ${path} in the script`);
    const node = doc.getIn(parts, true);
    if (isScalar(node)) {
      doc.setIn(parts, doc.createNode({ url: String(node.value) }));
    } else if (!isMap(node)) {
      throw new Error(`${path} is not a request the script screen can edit`);
    }
    doc.setIn([...parts, 'headers', 'Authorization'], value);
  }
  return written(docs);
}
