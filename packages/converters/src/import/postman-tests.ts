import { parse, type Expression, type Node, type Statement } from 'acorn';
import {
  type Capture,
  CaptureSchema,
  expectedValueProblem,
  type FunctionalValidation,
  FunctionalValidationSchema,
  type FunctionalValidationInput,
  NEGATABLE_VALIDATION_TYPES,
  POSTMAN_LIMITS,
} from '@aqa/plan';

/*
 * A Postman test script read statically into rules and captures (docs/adr/0029-postman-collections.md,
 * "What a collection becomes"): the script is parsed with a JavaScript parser and never run. The reading is conservative: a
 * script becomes rules and captures only when every one of its statements is a form listed in the ADR's
 * table; otherwise the whole script is kept, to run in the sandbox as it is.
 */

/** A test of a script: its name and the line it starts on (1-based, in the script). */
export interface ScriptTest {
  name: string;
  line: number;
}

export type TestScriptReading =
  /** Nothing but blanks and comments. */
  | { kind: 'empty' }
  /** Every statement mapped: the rules (named as their tests), and the captures, in script order. */
  | { kind: 'rules'; tests: ScriptTest[]; rules: FunctionalValidation[]; captures: Capture[] }
  /** Kept as the script it is; `reason` says what did not map. */
  | { kind: 'script'; tests: ScriptTest[]; reason: string }
  /** Cannot run at all (too long, or not JavaScript): its tests are left out. */
  | { kind: 'left_out'; tests: ScriptTest[]; reason: string; line: number };

/** Why a statement did not map; thrown inside the reader, caught by readTestScript. */
class NoMapping extends Error {}
const refuse = (why: string, node?: Node): never => {
  throw new NoMapping(node ? `line ${lineOf(node)}: ${why}` : why);
};

type AnyNode = Node & Record<string, unknown>;

function lineOf(node: Node): number {
  return node.loc?.start.line ?? 1;
}

function parseScript(source: string) {
  return parse(source, {
    ecmaVersion: 'latest',
    sourceType: 'script',
    locations: true,
    allowReturnOutsideFunction: true,
    allowAwaitOutsideFunction: true,
  });
}

/** Reads one test script (or, with `prerequest`, only counts the tests of a pre-request script). */
export function readTestScript(source: string, event: 'test' | 'prerequest' = 'test'): TestScriptReading {
  if (source.trim() === '') return { kind: 'empty' };
  if (source.length > POSTMAN_LIMITS.scriptChars) {
    return {
      kind: 'left_out',
      tests: testsByText(source),
      reason: `the script is ${source.length.toLocaleString('en')} characters long, over the ${POSTMAN_LIMITS.scriptChars.toLocaleString('en')} a script may hold`,
      line: 1,
    };
  }
  let program;
  try {
    program = parseScript(source);
  } catch (error) {
    const line = (error as { loc?: { line: number } }).loc?.line ?? 1;
    return {
      kind: 'left_out',
      tests: testsByText(source),
      reason: `the script is not JavaScript that can run: ${(error as Error).message}`,
      line,
    };
  }
  if (program.body.length === 0) return { kind: 'empty' };
  const tests = testsIn(program);
  if (event === 'prerequest') return { kind: 'script', tests, reason: 'a pre-request script runs as it is' };
  try {
    const reader = new ScriptReader();
    for (const statement of program.body) reader.topLevel(statement as Statement);
    return { kind: 'rules', tests: reader.tests, rules: reader.rules, captures: reader.captures };
  } catch (error) {
    // Any other failure of the reading (a shape it did not foresee) keeps the script too: never a crash.
    const reason = error instanceof NoMapping ? error.message : 'the script could not be read statically';
    return { kind: 'script', tests, reason };
  }
}

/** The pm.test calls and tests[...] assignments anywhere in a script, callbacks included. */
function testsIn(program: Node): ScriptTest[] {
  const found: ScriptTest[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (typeof node !== 'object' || node === null || typeof (node as AnyNode).type !== 'string') return;
    const n = node as AnyNode;
    if (n.type === 'CallExpression') {
      const callee = n.callee as AnyNode;
      if (isMember(callee, 'pm', 'test') || isMember(callee.object as AnyNode, 'pm', 'test')) {
        const args = n.arguments as Expression[];
        found.push({ name: stringOf(args[0]) ?? '(unnamed test)', line: lineOf(n) });
      }
    } else if (n.type === 'AssignmentExpression') {
      const left = n.left as AnyNode;
      if (left.type === 'MemberExpression' && isIdentifier(left.object, 'tests')) {
        const name = left.computed ? stringOf(left.property as Expression) : identifierName(left.property);
        found.push({ name: name ?? '(unnamed test)', line: lineOf(n) });
      }
    }
    for (const [key, value] of Object.entries(n)) if (key !== 'loc') visit(value);
  };
  visit(program);
  return found;
}

/** Tests found by their text, for a script that cannot be parsed. */
function testsByText(source: string): ScriptTest[] {
  const found: ScriptTest[] = [];
  source.split(/\r?\n/).forEach((line, index) => {
    const pattern =
      /\bpm\.test(?:\.skip)?\s*\(\s*(['"`])((?:(?!\1).)*)\1|\btests\s*\[\s*(['"`])((?:(?!\3).)*)\3\s*\]\s*=(?!=)/g;
    for (const match of line.matchAll(pattern)) {
      found.push({ name: match[2] ?? match[4] ?? '(unnamed test)', line: index + 1 });
    }
  });
  return found;
}

/** What an expression reads of the response. */
type Subject =
  | { kind: 'status' }
  | { kind: 'time' }
  | { kind: 'text' }
  | { kind: 'json'; path: string }
  | { kind: 'header'; name: string }
  | { kind: 'header_present'; name: string };

type Binding = Subject | { kind: 'literal'; value: unknown };

/** Chai's language chains: they read well and assert nothing. */
const CHAINS = new Set([
  'to',
  'be',
  'been',
  'is',
  'that',
  'which',
  'and',
  'has',
  'have',
  'with',
  'at',
  'of',
  'same',
  'but',
  'does',
  'still',
  'also',
  'deep',
]);

interface Link {
  name: string;
  args?: Expression[];
  node: Node;
}

class ScriptReader {
  readonly tests: ScriptTest[] = [];
  readonly rules: FunctionalValidation[] = [];
  readonly captures: Capture[] = [];
  private readonly names = new Set<string>();

  private scope = new Map<string, Binding>();

  topLevel(statement: Statement): void {
    if (statement.type === 'EmptyStatement') return;
    if (statement.type === 'VariableDeclaration') return this.declare(statement);
    if (statement.type !== 'ExpressionStatement') refuse(`a ${statement.type} is not a test`, statement);
    const expression = (statement as { expression: Expression }).expression;
    if (expression.type === 'CallExpression' && isMember(expression.callee as AnyNode, 'pm', 'test')) {
      return this.pmTest(expression as unknown as AnyNode);
    }
    if (expression.type === 'AssignmentExpression') return this.legacyTest(expression as unknown as AnyNode);
    const capture = this.capture(expression);
    if (capture) {
      this.captures.push(capture);
      return;
    }
    refuse('a statement that is neither a test nor a variable set from the response', statement);
  }

  /** `var jsonData = pm.response.json()`, `var schema = {…}`: names the later statements read. */
  private declare(statement: Statement): void {
    const declarations = (statement as unknown as { declarations: AnyNode[] }).declarations;
    for (const declaration of declarations) {
      const id = declaration.id as AnyNode;
      const init = declaration.init as Expression | null;
      if (id.type !== 'Identifier' || init === null)
        refuse('a declaration other than name = value', statement);
      const literal = literalOf(init);
      const binding: Binding | undefined = literal.ok
        ? { kind: 'literal', value: literal.value }
        : this.subject(init as Expression);
      if (
        binding === undefined ||
        (binding.kind !== 'literal' && !['json', 'text', 'header'].includes(binding.kind))
      )
        refuse(
          `${String(id.name)} holds something other than the response's JSON, text or a literal`,
          declaration,
        );
      this.scope.set(String(id.name), binding as Binding);
    }
  }

  private addTest(name: string | undefined, node: Node): string {
    if (name === undefined) return refuse('a test whose name is not written as text', node);
    if (name.trim() === '' || name.length > 200 || /[\r\n]/.test(name))
      refuse('a test name that is blank, multi-line or over 200 characters', node);
    // Postman keeps one test per name in tests[...]; two of one name in a script would not be two tests.
    if (this.names.has(name)) refuse(`two tests named "${name}"`, node);
    this.names.add(name);
    this.tests.push({ name, line: lineOf(node) });
    return name.trim();
  }

  private pmTest(call: AnyNode): void {
    const args = call.arguments as Expression[];
    const fn = args[1] as AnyNode | undefined;
    if (
      args.length !== 2 ||
      !fn ||
      (fn.type !== 'FunctionExpression' && fn.type !== 'ArrowFunctionExpression')
    )
      refuse('pm.test without a name and a function', call);
    const f = fn as AnyNode;
    if ((f.params as unknown[]).length > 0 || f.async === true) refuse('a test that takes a callback', call);
    const name = this.addTest(stringOf(args[0]), call);
    const body = f.body as AnyNode;
    const statements: Statement[] =
      body.type === 'BlockStatement'
        ? (body.body as Statement[])
        : [{ type: 'ExpressionStatement', expression: body } as unknown as Statement];
    const outer = this.scope;
    this.scope = new Map(outer);
    let assertions = 0;
    for (const statement of statements) {
      if (statement.type === 'EmptyStatement') continue;
      if (statement.type === 'VariableDeclaration') {
        this.declare(statement);
        continue;
      }
      if (statement.type !== 'ExpressionStatement') refuse(`a ${statement.type} inside a test`, statement);
      const rule = this.assertion((statement as { expression: Expression }).expression);
      this.pushRule({ ...rule, name }, statement);
      assertions++;
    }
    this.scope = outer;
    if (assertions === 0) refuse(`test "${name}" asserts nothing`, call);
  }

  private legacyTest(assignment: AnyNode): void {
    const left = assignment.left as AnyNode;
    if (
      assignment.operator !== '=' ||
      left.type !== 'MemberExpression' ||
      !isIdentifier(left.object, 'tests')
    )
      refuse('an assignment other than tests[name] = …', assignment);
    const name = this.addTest(
      left.computed ? stringOf(left.property as Expression) : identifierName(left.property),
      assignment,
    );
    const rule = this.legacyExpression(assignment.right as Expression);
    this.pushRule({ ...rule, name }, assignment);
  }

  private pushRule(draft: FunctionalValidationInput, node: Node): void {
    const expected = draft.expected_value ?? '';
    const problem = expectedValueProblem(draft.type ?? 'status_code', expected, 'new');
    const parsed = problem === undefined ? FunctionalValidationSchema.safeParse(draft) : undefined;
    if (!parsed?.success)
      refuse(`a rule cannot hold it: ${problem ?? parsed?.error.issues[0]?.message ?? ''}`, node);
    else this.rules.push(parsed.data);
  }

  /** A legacy test's boolean expression. */
  private legacyExpression(expression: Expression): FunctionalValidationInput {
    const e = expression as AnyNode;
    if (e.type === 'UnaryExpression' && e.operator === '!') {
      const inner = this.legacyExpression(e.argument as Expression);
      return negated(inner, expression);
    }
    if (e.type === 'BinaryExpression') {
      const operator = e.operator as string;
      const left = e.left as Expression;
      const right = e.right as Expression;
      if (operator === 'in') {
        const key = stringOf(left);
        const subject = this.subject(right);
        if (key === undefined || subject?.kind !== 'json')
          return refuse('an `in` test of something other than the JSON', expression);
        return { type: 'json_path', expected_value: childPath(subject.path, key, expression) };
      }
      const subject = this.subject(left);
      const literal = literalOf(right);
      if (subject && literal.ok) return this.comparison(subject, operator, literal.value, expression);
      return refuse(
        `a comparison (${operator}) of something other than the response with a literal`,
        expression,
      );
    }
    if (e.type === 'CallExpression') {
      const callee = e.callee as AnyNode;
      const args = e.arguments as Expression[];
      if (callee.type === 'MemberExpression' && !callee.computed) {
        const method = identifierName(callee.property);
        const subject = this.subject(callee.object as Expression);
        if (method === 'has' && subject?.kind === 'text' && args.length === 1) {
          const text = stringOf(args[0]);
          if (text !== undefined) return { type: 'contains_text', expected_value: text };
        }
        if (method === 'hasOwnProperty' && subject?.kind === 'json' && args.length === 1) {
          const key = stringOf(args[0]);
          if (key !== undefined)
            return { type: 'json_path', expected_value: childPath(subject.path, key, expression) };
        }
        if (isIdentifier(callee.object, 'tv4') && method === 'validate' && args.length === 2) {
          const data = this.subject(args[0] as Expression);
          const schema = this.literalValue(args[1] as Expression);
          if (data?.kind === 'json' && data.path === '$' && schema !== undefined)
            return schemaRule(schema, expression);
        }
      }
    }
    return refuse('a test expression other than the recognised ones', expression);
  }

  /** `subject OP literal` of a legacy test. */
  private comparison(
    subject: Subject,
    operator: string,
    value: unknown,
    node: Node,
  ): FunctionalValidationInput {
    const strict = operator === '===' || operator === '!==';
    const loose = operator === '==' || operator === '!=';
    const not = operator === '!==' || operator === '!=';
    if (strict || loose) {
      // Loose equality converts: only a text that no number, boolean or null reads as compares alike.
      if (
        loose &&
        !(
          typeof value === 'string' &&
          value.trim() !== '' &&
          Number.isNaN(Number(value)) &&
          !/^(true|false|null)$/.test(value)
        )
      )
        refuse(`a loose comparison (${operator}) with ${JSON.stringify(value)}`, node);
      const rule = this.equality(subject, value, node);
      return not ? negated(rule, node) : rule;
    }
    if (subject.kind === 'time' && typeof value === 'number') {
      if (operator === '<') return responseTime(value - 1, node);
      if (operator === '<=') return responseTime(value, node);
    }
    return refuse(`a comparison (${operator}) other than equality or a time limit`, node);
  }

  private equality(subject: Subject, value: unknown, node: Node): FunctionalValidationInput {
    switch (subject.kind) {
      case 'status':
        if (Number.isInteger(value)) return { type: 'status_code', expected_value: String(value) };
        break;
      case 'json':
        if (subject.path !== '$' && isScalar(value))
          return { type: 'json_path', expected_value: `${subject.path} == ${jsonLiteral(value)}` };
        break;
      case 'text':
        if (typeof value === 'string') return { type: 'equals', subject: 'body', expected_value: value };
        break;
      case 'header':
        if (typeof value === 'string')
          return { type: 'header_value', expected_value: `${subject.name}: ${value}` };
        break;
      case 'header_present':
        if (typeof value === 'boolean') return headerPresent(subject.name, !value);
        break;
      case 'time':
        break;
    }
    return refuse(`an equality of the ${subject.kind} with ${JSON.stringify(value)}`, node);
  }

  /** A pm.expect(…)… or pm.response.to… statement. */
  private assertion(expression: Expression): FunctionalValidationInput {
    const { root, links } = flatten(expression);
    if (!isIdentifier(root, 'pm'))
      return refuse('a statement other than pm.expect or pm.response.to', expression);
    let subject: Subject | undefined;
    let rest: Link[];
    if (links[0]?.name === 'expect' && links[0].args?.length === 1) {
      subject = this.subject(links[0].args[0] as Expression);
      if (subject === undefined) refuse('pm.expect of something other than the response', expression);
      rest = links.slice(1);
    } else if (links[0]?.name === 'response' && links[1]?.name === 'to' && links[1].args === undefined) {
      rest = links.slice(1);
    } else return refuse('a statement other than pm.expect or pm.response.to', expression);
    let not = false;
    let at = 0;
    for (; at < rest.length; at++) {
      const link = rest[at]!;
      if (link.args !== undefined) break;
      if (link.name === 'not') not = !not;
      else if (!CHAINS.has(link.name)) break;
    }
    const last = rest[at];
    if (last === undefined || at !== rest.length - 1)
      return refuse('an assertion chain other than the recognised ones', expression);
    const rule = subject
      ? this.expectAssertion(subject, last, expression)
      : this.responseAssertion(last, expression);
    return not ? negated(rule, expression) : rule;
  }

  /** pm.response.to.have.status(200), .be.ok, .have.header('X'[, 'v']), .have.jsonSchema(s), .have.jsonBody(p[, v]), .have.body('t'). */
  private responseAssertion(link: Link, node: Node): FunctionalValidationInput {
    const args = link.args ?? [];
    const literals = args.map((a) => this.literalValue(a));
    if (literals.some((l) => l === undefined))
      refuse(`pm.response.to…${link.name} of a value that is not a literal`, node);
    const [first, second] = literals;
    switch (link.name) {
      case 'ok':
      case 'success':
        if (link.args === undefined) return { type: 'status_code', expected_value: '2xx' };
        break;
      case 'status':
        if (args.length === 1 && Number.isInteger(first))
          return { type: 'status_code', expected_value: String(first) };
        break;
      case 'header':
        if (typeof first === 'string' && args.length === 1) return headerPresent(first, false);
        if (typeof first === 'string' && typeof second === 'string' && args.length === 2)
          return { type: 'header_value', expected_value: `${first}: ${second}` };
        break;
      case 'jsonSchema':
        if (args.length === 1 && first !== undefined) return schemaRule(first, node);
        break;
      case 'jsonBody': {
        if (typeof first !== 'string' || !/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(first)) break;
        const path = first.split('.').reduce((p, key) => childPath(p, key, node), '$');
        if (args.length === 1) return { type: 'json_path', expected_value: path };
        if (args.length === 2 && isScalar(second))
          return { type: 'json_path', expected_value: `${path} == ${jsonLiteral(second)}` };
        break;
      }
      case 'body':
        if (args.length === 1 && typeof first === 'string')
          return { type: 'equals', subject: 'body', expected_value: first };
        break;
    }
    return refuse(`pm.response.to…${link.name} in a form that does not map`, node);
  }

  /** pm.expect(subject)…<assertion>. */
  private expectAssertion(subject: Subject, link: Link, node: Node): FunctionalValidationInput {
    const args = link.args ?? [];
    const literals = args.map((a) => this.literalValue(a));
    if (literals.some((l) => l === undefined)) refuse(`.${link.name} of a value that is not a literal`, node);
    const [first, second] = literals;
    const called = link.args !== undefined;
    switch (link.name) {
      case 'eql':
      case 'eqls':
      case 'equal':
      case 'equals':
      case 'eq':
        if (args.length === 1) return this.equality(subject, first, node);
        break;
      case 'true':
      case 'false':
        if (!called) return this.equality(subject, link.name === 'true', node);
        break;
      case 'oneOf':
        if (
          subject.kind === 'status' &&
          Array.isArray(first) &&
          first.length > 0 &&
          first.every((s) => Number.isInteger(s))
        )
          return { type: 'status_code', expected_value: first.join(', ') };
        break;
      case 'below':
      case 'lessThan':
      case 'lt':
        if (subject.kind === 'time' && typeof first === 'number') return responseTime(first - 1, node);
        break;
      case 'most':
      case 'lte':
        if (subject.kind === 'time' && typeof first === 'number') return responseTime(first, node);
        break;
      case 'exist':
        if (!called && subject.kind === 'json' && subject.path !== '$')
          return { type: 'json_path', expected_value: subject.path };
        if (!called && subject.kind === 'header') return headerPresent(subject.name, false);
        break;
      case 'property':
        if (subject.kind === 'json' && typeof first === 'string') {
          const path = childPath(subject.path, first, node);
          if (args.length === 1) return { type: 'json_path', expected_value: path };
          if (args.length === 2 && isScalar(second))
            return { type: 'json_path', expected_value: `${path} == ${jsonLiteral(second)}` };
        }
        break;
      case 'include':
      case 'includes':
      case 'contain':
      case 'contains':
        if (args.length === 1 && typeof first === 'string') {
          if (subject.kind === 'text') return { type: 'contains_text', expected_value: first };
          if (subject.kind === 'header')
            return {
              type: 'regex',
              subject: 'headers',
              expected_value: `(?im)^${escapeRegex(subject.name)}:.*${escapeRegex(first)}`,
            };
        }
        break;
    }
    return refuse(`pm.expect(…).${link.name} of the ${subject.kind} in a form that does not map`, node);
  }

  /** postman.setEnvironmentVariable / pm.<scope>.set(name, <a value of the response>) as a capture. */
  private capture(expression: Expression): Capture | undefined {
    const e = expression as AnyNode;
    if (e.type !== 'CallExpression') return undefined;
    const callee = e.callee as AnyNode;
    const args = e.arguments as Expression[];
    const scoped =
      callee.type === 'MemberExpression' &&
      !callee.computed &&
      identifierName(callee.property) === 'set' &&
      ['environment', 'collectionVariables', 'variables', 'globals'].some((scope) =>
        isMember(callee.object as AnyNode, 'pm', scope),
      );
    const legacy = ['setEnvironmentVariable', 'setGlobalVariable'].some((m) =>
      isMember(callee, 'postman', m),
    );
    if (!scoped && !legacy) return undefined;
    const name = stringOf(args[0]);
    if (args.length !== 2 || name === undefined)
      return refuse('a variable set with a name that is not written as text', expression);
    const subject = this.subject(args[1] as Expression);
    const draft =
      subject?.kind === 'json' && subject.path !== '$'
        ? { name, from: 'json_path', expression: subject.path }
        : subject?.kind === 'header'
          ? { name, from: 'header', expression: subject.name }
          : undefined;
    if (draft === undefined)
      return refuse(
        `{{${name}}} is set to something other than a JSON value or header of the response`,
        expression,
      );
    const parsed = CaptureSchema.safeParse(draft);
    if (!parsed.success)
      return refuse(`{{${name}}} cannot be a capture: ${parsed.error.issues[0]?.message ?? ''}`, expression);
    return parsed.data;
  }

  /** What an expression reads of the response, or undefined. */
  private subject(expression: Expression): Subject | undefined {
    const e = expression as AnyNode;
    if (e.type === 'Identifier') {
      const name = String(e.name);
      const bound = this.scope.get(name);
      if (bound !== undefined) return bound.kind === 'literal' ? undefined : bound;
      if (name === 'responseBody') return { kind: 'text' };
      if (name === 'responseTime') return { kind: 'time' };
      return undefined;
    }
    if (e.type === 'MemberExpression') {
      const object = e.object as AnyNode;
      if (!e.computed && isMember(object, 'pm', 'response')) {
        const property = identifierName(e.property);
        if (property === 'code') return { kind: 'status' };
        if (property === 'responseTime') return { kind: 'time' };
      }
      if (!e.computed && isIdentifier(object, 'responseCode') && identifierName(e.property) === 'code')
        return { kind: 'status' };
      const parent = this.subject(object as Expression);
      if (parent?.kind !== 'json') return undefined;
      const key = e.computed
        ? literalOf(e.property as Expression)
        : { ok: true, value: identifierName(e.property) };
      if (!key.ok) return undefined;
      if (typeof key.value === 'number' && Number.isInteger(key.value) && key.value >= 0)
        return { kind: 'json', path: `${parent.path}[${key.value}]` };
      if (typeof key.value !== 'string') return undefined;
      return { kind: 'json', path: childPath(parent.path, key.value, expression) };
    }
    if (e.type === 'CallExpression') {
      const callee = e.callee as AnyNode;
      const args = e.arguments as Expression[];
      if (
        isMember(callee, 'JSON', 'parse') &&
        args.length === 1 &&
        this.subject(args[0] as Expression)?.kind === 'text'
      )
        return { kind: 'json', path: '$' };
      if (callee.type !== 'MemberExpression' || callee.computed) return undefined;
      const method = identifierName(callee.property);
      const object = callee.object as AnyNode;
      if (isMember(object, 'pm', 'response') && args.length === 0) {
        if (method === 'json') return { kind: 'json', path: '$' };
        if (method === 'text') return { kind: 'text' };
      }
      const header = args.length === 1 ? stringOf(args[0]) : undefined;
      if (header !== undefined && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) {
        const headers =
          object.type === 'MemberExpression' &&
          !object.computed &&
          identifierName(object.property) === 'headers' &&
          isMember(object.object as AnyNode, 'pm', 'response');
        if (headers && method === 'get') return { kind: 'header', name: header };
        if (headers && method === 'has') return { kind: 'header_present', name: header };
        if (isMember(callee, 'postman', 'getResponseHeader')) return { kind: 'header', name: header };
      }
    }
    return undefined;
  }

  /** A literal written in place, or a name declared with one. */
  private literalValue(expression: Expression): unknown {
    const literal = literalOf(expression);
    if (literal.ok) return literal.value;
    const e = expression as AnyNode;
    if (e.type === 'Identifier') {
      const bound = this.scope.get(String(e.name));
      if (bound?.kind === 'literal') return bound.value;
    }
    return undefined;
  }
}

function negated(rule: FunctionalValidationInput, node: Node): FunctionalValidationInput {
  if (rule.type !== undefined && NEGATABLE_VALIDATION_TYPES.includes(rule.type))
    return { ...rule, negate: !rule.negate };
  return refuse(`a negated ${rule.type ?? ''} test`, node);
}

function responseTime(limit: number, node: Node): FunctionalValidationInput {
  if (!Number.isInteger(limit) || limit < 1) refuse(`a response time limit of ${limit} ms`, node);
  return { type: 'response_time', expected_value: String(limit) };
}

function headerPresent(name: string, negate: boolean): FunctionalValidationInput {
  return {
    type: 'regex',
    subject: 'headers',
    expected_value: `(?im)^${escapeRegex(name)}:`,
    ...(negate ? { negate: true } : {}),
  };
}

function schemaRule(schema: unknown, node: Node): FunctionalValidationInput {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return refuse('a schema that is not an object', node);
  return { type: 'schema', expected_value: JSON.stringify(schema) };
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** An expected value as docs/design.md §4 "JSON literals" reads it: a quoted string, a number, true, false, null. */
function jsonLiteral(value: string | number | boolean | null): string {
  return JSON.stringify(value);
}

/** `$.a` + `b` → `$.a.b`; a key that is no plain name is quoted (`$['first name']`). */
function childPath(path: string, key: string, node: Node): string {
  // `.length` of an array is its size in JavaScript but a key in JSONPath.
  if (key === 'length') refuse('the length of a JSON value', node);
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return `${path}.${key}`;
  if (key === '' || (/['\\\s]/.test(key) && /['\\]/.test(key)))
    refuse(`the key ${JSON.stringify(key)}`, node);
  return `${path}['${key}']`;
}

/** The JSON value a literal expression writes (strings, numbers, booleans, null, arrays, objects). */
function literalOf(expression: Expression | null | undefined): { ok: true; value: unknown } | { ok: false } {
  const e = expression as AnyNode | null | undefined;
  if (!e) return { ok: false };
  switch (e.type) {
    case 'Literal':
      if (e.regex !== undefined || typeof e.value === 'bigint') return { ok: false };
      if (typeof e.value === 'number' && !Number.isFinite(e.value)) return { ok: false };
      return { ok: true, value: e.value };
    case 'TemplateLiteral': {
      const text = stringOf(expression as Expression);
      return text === undefined ? { ok: false } : { ok: true, value: text };
    }
    case 'UnaryExpression': {
      const inner = literalOf(e.argument as Expression);
      if (e.operator === '-' && inner.ok && typeof inner.value === 'number')
        return { ok: true, value: -inner.value };
      return { ok: false };
    }
    case 'ArrayExpression': {
      const values: unknown[] = [];
      for (const element of e.elements as (Expression | null)[]) {
        const item = literalOf(element);
        if (!item.ok) return { ok: false };
        values.push(item.value);
      }
      return { ok: true, value: values };
    }
    case 'ObjectExpression': {
      const object: Record<string, unknown> = {};
      for (const property of e.properties as AnyNode[]) {
        if (property.type !== 'Property' || property.kind !== 'init' || property.method || property.computed)
          return { ok: false };
        const key = property.key as AnyNode;
        const name =
          key.type === 'Identifier'
            ? String(key.name)
            : key.type === 'Literal'
              ? String(key.value)
              : undefined;
        const value = literalOf(property.value as Expression);
        if (name === undefined || !value.ok) return { ok: false };
        object[name] = value.value;
      }
      return { ok: true, value: object };
    }
    default:
      return { ok: false };
  }
}

/** A string literal, or a template literal without ${…}. */
function stringOf(expression: Expression | undefined): string | undefined {
  const e = expression as AnyNode | undefined;
  if (e?.type === 'Literal' && typeof e.value === 'string') return e.value;
  if (e?.type === 'TemplateLiteral' && (e.expressions as unknown[]).length === 0) {
    const quasi = (e.quasis as AnyNode[])[0];
    const cooked = (quasi?.value as { cooked?: string } | undefined)?.cooked;
    return typeof cooked === 'string' ? cooked : undefined;
  }
  return undefined;
}

function identifierName(node: unknown): string | undefined {
  const n = node as AnyNode | undefined;
  return n?.type === 'Identifier' ? String(n.name) : undefined;
}

function isIdentifier(node: unknown, name: string): boolean {
  return identifierName(node) === name;
}

/** `object.property`, written with a dot. */
function isMember(node: AnyNode | undefined, object: string, property: string): boolean {
  return (
    node?.type === 'MemberExpression' &&
    !node.computed &&
    isIdentifier(node.object, object) &&
    identifierName(node.property) === property
  );
}

/** `pm.expect(x).to.be.oneOf([…])` → root `pm`, links expect(x), to, be, oneOf([…]). */
function flatten(expression: Expression): { root: Node; links: Link[] } {
  const links: Link[] = [];
  let node = expression as AnyNode;
  for (;;) {
    if (node.type === 'MemberExpression' && !node.computed && identifierName(node.property) !== undefined) {
      links.push({ name: identifierName(node.property)!, node });
      node = node.object as AnyNode;
    } else if (node.type === 'CallExpression') {
      const callee = node.callee as AnyNode;
      if (
        callee.type !== 'MemberExpression' ||
        callee.computed ||
        identifierName(callee.property) === undefined
      )
        break;
      links.push({ name: identifierName(callee.property)!, args: node.arguments as Expression[], node });
      node = callee.object as AnyNode;
    } else break;
  }
  return { root: node, links: links.reverse() };
}
