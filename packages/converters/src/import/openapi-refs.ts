import { ImportError, type ImportWarning, isRecord } from './import-model';
import { parseStructuredText, type ImportSource, sourceText } from './read-document';

/**
 * $ref resolution for OpenAPI and Swagger documents: JSON pointers inside the document, and references to
 * other files when those files were uploaded with it (a multi-file spec). A reference to a file that was
 * not uploaded, to a remote URL, or one that leads back to itself, is a warning naming it, never a crash.
 */

/** One document in the set: the root ("" is its folder) or an uploaded file referenced from it. */
export interface RefContext {
  /** The file's path relative to the root file's folder, "" for the root. */
  path: string;
  doc: unknown;
}

export interface Resolved<T = unknown> {
  value: T;
  ctx: RefContext;
  /** "file#/pointer" of the last $ref followed, to detect recursion; undefined when no $ref was followed. */
  key: string | undefined;
}

const MAX_CHAIN = 64;

export class RefResolver {
  readonly root: RefContext;
  private readonly files = new Map<string, ImportSource>();
  private readonly parsed = new Map<string, RefContext | null>();
  private readonly reported = new Set<string>();

  constructor(
    rootDoc: unknown,
    private readonly rootFile: string,
    externalFiles: Readonly<Record<string, ImportSource>>,
    private readonly warnings: ImportWarning[],
  ) {
    this.root = { path: rootFile, doc: rootDoc };
    for (const [path, source] of Object.entries(externalFiles)) this.files.set(normalizePath(path), source);
  }

  /**
   * Follows `node`'s $ref chain (if any) to the value it names. Returns undefined, with a warning at
   * `location`, when a reference cannot be followed.
   */
  resolve(node: unknown, ctx: RefContext, location: string): Resolved | undefined {
    let value = node;
    let current = ctx;
    let key: string | undefined;
    const seen = new Set<string>();
    for (let hops = 0; isRecord(value) && typeof value.$ref === 'string'; hops++) {
      const ref = value.$ref;
      const target = this.follow(ref, current, location);
      if (target === undefined) return undefined;
      if (seen.has(target.key) || hops >= MAX_CHAIN) {
        this.warnOnce(
          `cycle:${target.key}`,
          location,
          `The $ref "${ref}" leads back to itself, so it is left out`,
        );
        return undefined;
      }
      seen.add(target.key);
      key = target.key;
      value = target.value;
      current = target.ctx;
    }
    return { value, ctx: current, key };
  }

  /** The value a single $ref names (not followed further). */
  private follow(
    ref: string,
    ctx: RefContext,
    location: string,
  ): { value: unknown; ctx: RefContext; key: string } | undefined {
    const hash = ref.indexOf('#');
    const filePart = hash === -1 ? ref : ref.slice(0, hash);
    const pointer = hash === -1 ? '' : ref.slice(hash + 1);
    let target = ctx;
    if (filePart !== '') {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(filePart)) {
        this.warnOnce(
          `remote:${filePart}`,
          location,
          `The $ref "${ref}" points to a remote document, which is not fetched; what it describes is left out`,
        );
        return undefined;
      }
      const loaded = this.load(joinPath(dirName(ctx.path === this.rootFile ? '' : ctx.path), filePart));
      if (loaded === undefined) {
        this.warnOnce(
          `missing:${filePart}`,
          location,
          `The $ref "${ref}" points to the file ${filePart}, which was not uploaded; upload it together with ${this.rootFile} to import what it describes`,
        );
        return undefined;
      }
      target = loaded;
    }
    const value = evaluatePointer(target.doc, pointer);
    if (value === undefined) {
      this.warnOnce(
        `dangling:${ref}:${target.path}`,
        location,
        `The $ref "${ref}" points to nothing in ${target.path}, so it is left out`,
      );
      return undefined;
    }
    return { value, ctx: target, key: `${target.path}#${pointer}` };
  }

  private load(path: string): RefContext | undefined {
    if (path === normalizePath(this.rootFile.split(/[\\/]/).pop() ?? this.rootFile)) return this.root;
    const cached = this.parsed.get(path);
    if (cached !== undefined) return cached ?? undefined;
    const source = this.findFile(path);
    if (source === undefined) {
      this.parsed.set(path, null);
      return undefined;
    }
    const [name, file] = source;
    let doc: unknown;
    try {
      doc = parseStructuredText(sourceText({ ...file, name }), name);
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      this.warnings.push({
        location: name,
        message: `The referenced file could not be read: ${error.problem}`,
      });
      this.parsed.set(path, null);
      return undefined;
    }
    const ctx = { path, doc };
    this.parsed.set(path, ctx);
    return ctx;
  }

  /** The uploaded file at that path, or else the only one with the same file name (uploads lose folders). */
  private findFile(path: string): [string, ImportSource] | undefined {
    const exact = this.files.get(path);
    if (exact) return [path, exact];
    const name = path.split('/').pop() ?? path;
    const byName = [...this.files].filter(([p]) => (p.split('/').pop() ?? p) === name);
    return byName.length === 1 ? byName[0] : undefined;
  }

  private warnOnce(key: string, location: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.warnings.push({ location, message });
  }
}

/** RFC 6901 pointer ("/components/schemas/Pet"; "" is the whole document); also percent-decoded. */
export function evaluatePointer(doc: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return doc;
  let node = doc;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    let token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    try {
      token = decodeURIComponent(token);
    } catch {
      // Keep the token as written.
    }
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isRecord(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

export function normalizePath(path: string): string {
  const out: string[] = [];
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

function dirName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

function joinPath(dir: string, relative: string): string {
  return normalizePath(dir === '' ? relative : `${dir}/${relative}`);
}
