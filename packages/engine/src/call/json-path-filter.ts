import { JSONPath } from 'jsonpath-plus';
import { compileUserPattern, UserPatternError, type UserPattern } from '@aqa/plan';

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

/** The properties a value offers a filter: its own, and the length of a string or a list. */
function member(object: unknown, key: unknown): unknown {
  if (object === null || object === undefined) {
    throw new TypeError(`Cannot read properties of ${String(object)} (reading '${String(key)}')`);
  }
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

/** A filter expression that cannot be run here, in words. */
export class JsonPathFilterError extends Error {
  override readonly name = 'JsonPathFilterError';

  constructor(
    message: string,
    /** `syntax`: no expression at all (judged on each answer, as before); `refused`: one that may not run. */
    readonly kind: 'syntax' | 'refused' = 'refused',
  ) {
    super(message);
  }
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
      ast = new SafeScript(code).ast;
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
        return;
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

/**
 * Checks every filter and script of a JSONPath before it runs, so a refusal is a plan problem said when
 * the plan is compiled, not a failed check on each answer. Paths that do not parse are left to the query.
 */
export function checkJsonPathFilters(path: string): void {
  let parts: string[];
  try {
    parts = JSONPath.toPathArray(path);
  } catch {
    return;
  }
  for (const part of parts) {
    const code = /^\??\(([\s\S]*)\)$/.exec(part)?.[1];
    if (code === undefined) continue;
    // The names jsonpath-plus gives @ and its kin before it evaluates (its _eval).
    const script = code
      .replaceAll('@parentProperty', '_$_parentProperty')
      .replaceAll('@parent', '_$_parent')
      .replaceAll('@property', '_$_property')
      .replaceAll('@root', '_$_root')
      .replaceAll('@path', '_$_path')
      .replace(/@([.\s)[])/gu, '_$_v$1');
    try {
      new JsonPathFilterScript(script);
    } catch (error) {
      if (!(error instanceof JsonPathFilterError) || error.kind === 'refused') throw error;
    }
  }
}
