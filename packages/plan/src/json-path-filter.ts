import { JSONPath } from 'jsonpath-plus';
import { compileUserPattern, UserPatternError, type UserPattern } from './user-pattern';

/*
 * JSONPath filter expressions (`$.items[?(@.price < 10)]`, `$..book[(@.length-1)]`) are user code run
 * on every answer. jsonpath-plus's "safe" evaluator runs no JavaScript eval, but it still calls any
 * method a value has — `@.name.match(/(a+)+$/)` backtracks for ever, `@.name.repeat(1e9)` fills the
 * memory. Filters here are read by this evaluator instead (docs/adr/0022-linear-time-patterns.md):
 * comparisons, arithmetic, && || !, ?:, members and indexes of the value, and only these calls —
 * `/re/.test(x)` and `x.match(/re/)` (on the linear-time pattern engine), and the string and list
 * methods includes, startsWith, endsWith, indexOf, toLowerCase, toUpperCase and trim, whose cost is
 * the length of what they read.
 */

type Node = {
  type: string;
  [key: string]: unknown;
};

/** What a filter may call, by method name: each runs in time linear in what it reads. */
const METHODS: ReadonlySet<string> = new Set([
  'includes',
  'startsWith',
  'endsWith',
  'indexOf',
  'toLowerCase',
  'toUpperCase',
  'trim',
]);

/**
 * The properties a value offers a filter: its own, and the length of a string or a list. A member of
 * a missing value is missing (as RFC 9535 reads `@.owner.name` where a value has no owner), so the
 * rest of the filter still decides: `@.owner.name == "x" || @.id == 2`.
 */
function member(object: unknown, key: unknown): unknown {
  if (object === null || object === undefined) return undefined;
  const name = typeof key === 'number' ? key : String(key);
  if (name === 'length' && (typeof object === 'string' || Array.isArray(object))) return object.length;
  if (typeof object !== 'object' && typeof object !== 'string') return undefined;
  return Object.hasOwn(object as object, name)
    ? (object as Record<string | number, unknown>)[name]
    : undefined;
}

const BINARY: Readonly<Record<string, (a: unknown, b: () => unknown) => unknown>> = {
  '||': (a, b) => a || b(),
  '&&': (a, b) => a && b(),
  // A filter's == and != are JavaScript's, as jsonpath-plus reads them.
  '==': (a, b) => a == b(),
  '!=': (a, b) => a != b(),
  '===': (a, b) => a === b(),
  '!==': (a, b) => a !== b(),
  '<': (a, b) => (a as number) < (b() as number),
  '>': (a, b) => (a as number) > (b() as number),
  '<=': (a, b) => (a as number) <= (b() as number),
  '>=': (a, b) => (a as number) >= (b() as number),
  '+': (a, b) => (a as number) + (b() as number),
  '-': (a, b) => (a as number) - (b() as number),
  '*': (a, b) => (a as number) * (b() as number),
  '/': (a, b) => (a as number) / (b() as number),
  '%': (a, b) => (a as number) % (b() as number),
};

const UNARY: Readonly<Record<string, (a: unknown) => unknown>> = {
  '!': (a) => !a,
  '-': (a) => -(a as number),
  '+': (a) => +(a as number),
  typeof: (a) => typeof a,
};

/** A JSONPath or filter expression that cannot be run here, in words. */
export class JsonPathFilterError extends Error {
  override readonly name = 'JsonPathFilterError';

  constructor(
    message: string,
    /** `syntax`: no expression, or a path that does not close; `refused`: one that may not run. */
    readonly kind: 'syntax' | 'refused' = 'refused',
  ) {
    super(message);
  }
}

/** The names jsonpath-plus gives a filter's sandbox (its _eval), by what a filter writes for them. */
const SANDBOX_NAMES: ReadonlyMap<string, string> = new Map([
  ['_$_v', '@'],
  ['_$_parent', '@parent'],
  ['_$_parentProperty', '@parentProperty'],
  ['_$_property', '@property'],
  ['_$_root', '@root'],
  ['_$_path', '@path'],
]);

/**
 * A bare `@` (`@=='qa'`, `@>1`, a filter that is `@` alone) read as the current value, as every JSONPath
 * dialect reads it: jsonpath-plus binds `@` only before `.`, `[`, `)` or a blank. Quoted text is left as
 * it is.
 */
function bindBareAt(script: string): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (quote !== null) {
      out += c;
      if (c === '\\') out += script[++i] ?? '';
      else if (c === quote) quote = null;
    } else if (c === '@' && !/[A-Za-z_$]/.test(script[i + 1] ?? '')) out += '_$_v';
    else {
      if (c === '"' || c === "'") quote = c;
      out += c;
    }
  }
  return out;
}

/** A filter's code as it runs: jsonpath-plus's rewriting of the @ names (its _eval), then bindBareAt. */
function filterScript(code: string): string {
  return bindBareAt(
    code
      .replaceAll('@parentProperty', '_$_parentProperty')
      .replaceAll('@parent', '_$_parent')
      .replaceAll('@property', '_$_property')
      .replaceAll('@root', '_$_root')
      .replaceAll('@path', '_$_path')
      .replace(/@([.\s)[])/gu, '_$_v$1'),
  );
}

/** jsonpath-plus's own parser (jsep with its regex plugin): the tree of a filter, not run. */
const SafeScript = (
  JSONPath.prototype as unknown as { safeVm: { Script: new (code: string) => { ast: Node } } }
).safeVm.Script;

/**
 * A filter compiled for jsonpath-plus's `eval` option: parsed and checked when made (every regex
 * compiled on the linear-time engine), then run against each value's sandbox.
 */
export class JsonPathFilterScript {
  private readonly ast: Node;
  private readonly patterns = new Map<Node, UserPattern>();

  constructor(code: string) {
    let ast: Node;
    try {
      ast = new SafeScript(bindBareAt(code)).ast;
    } catch (error) {
      throw new JsonPathFilterError((error as Error).message, 'syntax');
    }
    this.ast = ast;
    this.check(ast);
  }

  runInNewContext(context: Record<string, unknown>): unknown {
    return this.evaluate(this.ast, context);
  }

  /** Refuses what the filter may not do, before it runs, and compiles its patterns. */
  private check(node: Node): void {
    switch (node.type) {
      case 'Literal':
        if (node.value instanceof RegExp) this.pattern(node);
        return;
      case 'Identifier':
        if (!SANDBOX_NAMES.has(String(node.name))) throw unknownName(String(node.name));
        return;
      case 'AssignmentExpression':
        throw new JsonPathFilterError(
          `${String(node.operator)} is not a comparison in a JSONPath filter: write == to compare, /re/.test(@.x) to match a pattern`,
        );
      case 'MemberExpression':
        this.check(node.object as Node);
        if (node.computed === true) this.check(node.property as Node);
        return;
      case 'BinaryExpression':
      case 'LogicalExpression':
        if (!(String(node.operator) in BINARY)) throw refused(`the operator ${String(node.operator)}`);
        this.check(node.left as Node);
        this.check(node.right as Node);
        return;
      case 'UnaryExpression':
        if (!(String(node.operator) in UNARY)) throw refused(`the operator ${String(node.operator)}`);
        this.check(node.argument as Node);
        return;
      case 'ConditionalExpression':
        for (const part of [node.test, node.consequent, node.alternate]) this.check(part as Node);
        return;
      case 'ArrayExpression':
        for (const element of node.elements as Node[]) this.check(element);
        return;
      case 'CallExpression': {
        const callee = node.callee as Node;
        const name = callee.type === 'MemberExpression' && callee.computed !== true ? methodName(callee) : '';
        const args = node.arguments as Node[];
        if (name === 'test' && isRegex(callee.object as Node) && args.length === 1) {
          this.pattern(callee.object as Node);
          this.check(args[0]!);
          return;
        }
        if (name === 'match' && args.length === 1 && isRegex(args[0]!)) {
          this.pattern(args[0]!);
          this.check(callee.object as Node);
          return;
        }
        if (!METHODS.has(name)) throw refused(name === '' ? 'this call' : `calling ${name}()`);
        this.check(callee.object as Node);
        for (const arg of args) this.check(arg);
        return;
      }
      default:
        throw refused(`a ${node.type}`);
    }
  }

  private pattern(node: Node): UserPattern {
    let pattern = this.patterns.get(node);
    if (pattern === undefined) {
      const re = node.value as RegExp;
      try {
        pattern = compileUserPattern(re.source, re.flags);
      } catch (error) {
        if (error instanceof UserPatternError)
          throw new JsonPathFilterError(`/${re.source}/: ${error.message}`);
        throw error;
      }
      this.patterns.set(node, pattern);
    }
    return pattern;
  }

  private evaluate(node: Node, context: Record<string, unknown>): unknown {
    switch (node.type) {
      case 'Literal':
        return node.value instanceof RegExp ? this.pattern(node) : node.value;
      case 'Identifier': {
        const name = String(node.name);
        if (!Object.hasOwn(context, name)) throw new ReferenceError(`${name} is not defined`);
        return context[name];
      }
      case 'MemberExpression': {
        const object = this.evaluate(node.object as Node, context);
        const key =
          node.computed === true
            ? this.evaluate(node.property as Node, context)
            : (node.property as Node).name;
        return member(object, key);
      }
      case 'BinaryExpression':
      case 'LogicalExpression':
        return BINARY[String(node.operator)]!(this.evaluate(node.left as Node, context), () =>
          this.evaluate(node.right as Node, context),
        );
      case 'UnaryExpression':
        return UNARY[String(node.operator)]!(this.evaluate(node.argument as Node, context));
      case 'ConditionalExpression':
        return this.evaluate(node.test as Node, context)
          ? this.evaluate(node.consequent as Node, context)
          : this.evaluate(node.alternate as Node, context);
      case 'ArrayExpression':
        return (node.elements as Node[]).map((element) => this.evaluate(element, context));
      case 'CallExpression':
        return this.call(node, context);
      default:
        throw refused(`a ${node.type}`);
    }
  }

  private call(node: Node, context: Record<string, unknown>): unknown {
    const callee = node.callee as Node;
    const name = methodName(callee);
    const args = (node.arguments as Node[]).map((arg) => this.evaluate(arg, context));
    const receiver = this.evaluate(callee.object as Node, context);
    if (name === 'test' && isPattern(receiver)) return receiver.test(String(args[0]));
    if (name === 'match' && isPattern(args[0])) {
      if (typeof receiver !== 'string') throw new TypeError(`match() reads text, not ${typeof receiver}`);
      return args[0].exec(receiver);
    }
    if (typeof receiver !== 'string' && !Array.isArray(receiver)) {
      throw new TypeError(
        `${name}() reads text or a list, not ${receiver === null ? 'null' : typeof receiver}`,
      );
    }
    const method = (receiver as unknown as Record<string, unknown>)[name];
    if (typeof method !== 'function') throw new TypeError(`${name}() is not a method of a list`);
    return (method as (...a: unknown[]) => unknown).apply(receiver, args);
  }
}

function methodName(callee: Node): string {
  const property = callee.property as Node | undefined;
  return callee.computed === true || property?.type !== 'Identifier' ? '' : String(property.name);
}

function isRegex(node: Node): boolean {
  return node.type === 'Literal' && node.value instanceof RegExp;
}

function isPattern(value: unknown): value is UserPattern {
  return typeof value === 'object' && value !== null && 'nth' in value && 'test' in value;
}

function refused(what: string): JsonPathFilterError {
  return new JsonPathFilterError(
    `${what} is not supported in a JSONPath filter (comparisons, && || !, members, /re/.test(x), x.match(/re/), includes, startsWith, endsWith, indexOf, toLowerCase, toUpperCase and trim are)`,
  );
}

function unknownName(name: string): JsonPathFilterError {
  const written = [...SANDBOX_NAMES.values()].join(', ');
  return new JsonPathFilterError(
    name === '$'
      ? `$ is not read inside a JSONPath filter: the document's root is @root there`
      : `${name} is not known in a JSONPath filter, which reads ${written}`,
  );
}

/** Where a path's quotes or brackets do not close, in words, or undefined when they all do. */
function unclosed(path: string): string | undefined {
  const open: string[] = [];
  let quote: string | null = null;
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(') open.push(c);
    else if (c === ']' || c === ')') {
      const opened = open.pop();
      if (opened === undefined) return `${c} at character ${i + 1} closes nothing open`;
      if (c !== (opened === '[' ? ']' : ')'))
        return `${c} at character ${i + 1} comes before its ${opened} is closed`;
    }
  }
  if (quote !== null) return `its quote ${quote} does not close`;
  const last = open.at(-1);
  return last === undefined ? undefined : `its ${last} does not close`;
}

/**
 * Why a JSONPath cannot be judged here, or undefined when it can: the one check of a JSONPath. The
 * API editor's form (expectedValueProblem), the server's save (apps/server/src/services/pattern-refusal.ts)
 * and the engine's compile (packages/engine/src/call/json-path.ts) all make it, so a path either judges
 * or is refused, with its reason, before any answer; a plan that was not saved through them fails that
 * rule when judged, never the run. It refuses a path whose brackets or quotes do not close, a filter
 * that does not parse or is not written `[?(…)]`, and a filter that may not run.
 */
export function jsonPathProblem(path: string): string | undefined {
  const open = unclosed(path);
  if (open !== undefined) return `${path} does not close: ${open}`;
  let parts: string[];
  try {
    parts = JSONPath.toPathArray(path);
  } catch (error) {
    return `${path} is not a JSONPath: ${(error as Error).message}`;
  }
  for (const part of parts) {
    if (!part.startsWith('?') && !part.startsWith('(')) continue;
    const code = /^\??\(([\s\S]*)\)$/.exec(part)?.[1];
    if (code === undefined)
      return `[${part}] is not a filter here: a filter is written [?(…)], e.g. [?(@.id == 1)]`;
    try {
      new JsonPathFilterScript(filterScript(code));
    } catch (error) {
      if (!(error instanceof JsonPathFilterError)) throw error;
      return error.kind === 'syntax' ? `the filter ${part} does not parse: ${error.message}` : error.message;
    }
  }
  return undefined;
}

/** Throws jsonPathProblem's reason as a JsonPathFilterError. */
export function checkJsonPathFilters(path: string): void {
  const problem = jsonPathProblem(path);
  if (problem !== undefined) throw new JsonPathFilterError(problem);
}
