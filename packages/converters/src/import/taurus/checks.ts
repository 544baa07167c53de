import {
  type Capture,
  CaptureSchema,
  type FunctionalValidationInput,
  FunctionalValidationSchema,
  type ValidationSubject,
} from '@aqa/plan';
import { captureGroupCount, escapeJsRegex } from '../../export/serializers/regex-escape';
import { type Plain, isPlainMap } from './yaml-tree';
import { pathKey, scalarText, taurusFlag } from './taurus-text';

/*
 * A request's Taurus assertions and extractors → the functional model's validations and captures
 * (docs/reference/02-running.md §3 "Taurus scripts"). What the model cannot say is reported through
 * `warn` with its YAML path and left out.
 */

export interface CheckContext {
  /** Reports a construct that is left out, at `path` (the line is found from container and key). */
  warn(path: string, container: object, key: string | number, message: string): void;
  /** Text as the model's template: ${name} → {{name}}, variables put in, functions reported. */
  template(text: string, path: string, container: object, key: string | number): string;
}

/** Regular-expression syntax: a pattern without any of these finds itself as plain text. */
const REGEX_SYNTAX = /[\\^$.|?*+()[\]{}]/;

/** Taurus's `assert` (JMeter's Response Assertion): one rule per pattern, all must hold. */
export function readAssert(
  list: Plain,
  path: string,
  holder: object,
  key: string,
  ctx: CheckContext,
): FunctionalValidationInput[] {
  const out: FunctionalValidationInput[] = [];
  for (const [item, at, container, index] of items(list, path, holder, key)) {
    const spec = typeof item === 'string' || typeof item === 'number' ? { contains: [item] } : item;
    if (!isPlainMap(spec)) {
      ctx.warn(
        at,
        container,
        index,
        'This assertion is neither a pattern nor a map of contains, subject, regexp and not; it is skipped',
      );
      continue;
    }
    const subjectText = scalarText(spec.subject) ?? 'body';
    const subject = Object.hasOwn(ASSERT_SUBJECTS, subjectText) ? ASSERT_SUBJECTS[subjectText] : undefined;
    if (subject === undefined) {
      ctx.warn(
        at,
        container,
        index,
        `An assertion on "${subjectText}" is skipped: the checks read the body, the headers or the http-code`,
      );
      continue;
    }
    const regexp = taurusFlag(spec.regexp, true);
    const negate = taurusFlag(spec.not);
    const patterns = Array.isArray(spec.contains)
      ? spec.contains
      : spec.contains === undefined
        ? []
        : [spec.contains];
    if (patterns.length === 0)
      ctx.warn(
        at,
        container,
        index,
        'This assertion has no contains list, so it checks nothing; it is skipped',
      );
    patterns.forEach((raw, p) => {
      const where = `${at}.contains[${p}]`;
      const text = scalarText(raw);
      if (text === undefined || text === '') {
        ctx.warn(at, container, index, `contains[${p}] is not a pattern; it is skipped`);
        return;
      }
      const pattern = ctx.template(text, where, container, index);
      out.push(...checked([assertRule(pattern, subject, regexp, negate)], where, container, index, ctx));
    });
    for (const extra of Object.keys(spec)) {
      if (!['contains', 'subject', 'regexp', 'not', 'assume-success'].includes(extra)) {
        ctx.warn(
          `${at}${pathKey(extra)}`,
          spec,
          extra,
          `"${extra}" is not an assertion setting Taurus documents; it is skipped`,
        );
      }
    }
  }
  return out;
}

const ASSERT_SUBJECTS: Record<string, ValidationSubject> = {
  body: 'body',
  headers: 'headers',
  'http-code': 'status_code',
};

function assertRule(
  pattern: string,
  subject: ValidationSubject,
  regexp: boolean,
  negate: boolean,
): FunctionalValidationInput {
  const flag = negate ? { negate: true } : {};
  if (subject === 'status_code') {
    // A 3-digit code found in a 3-digit status is that status; "^200$" says the same as a regex.
    const code = /^\^?(\d{3})\$?$/.exec(pattern)?.[1];
    if (code !== undefined && (regexp || !pattern.includes('^'))) {
      return { type: 'status_code', expected_value: code, ...flag };
    }
  }
  const literal = !regexp || !REGEX_SYNTAX.test(pattern);
  const side = subject === 'body' ? {} : { subject };
  return literal
    ? { type: 'contains_text', expected_value: pattern, ...side, ...flag }
    : { type: 'regex', expected_value: pattern, ...side, ...flag };
}

/** Taurus's `assert-jsonpath` (JMeter's JSON Assertion). */
export function readAssertJsonPath(
  list: Plain,
  path: string,
  holder: object,
  key: string,
  ctx: CheckContext,
): FunctionalValidationInput[] {
  const out: FunctionalValidationInput[] = [];
  for (const [item, at, container, index] of items(list, path, holder, key)) {
    const spec = typeof item === 'string' ? { jsonpath: item } : item;
    const jsonPath = isPlainMap(spec) ? scalarText(spec.jsonpath) : undefined;
    if (!isPlainMap(spec) || jsonPath === undefined || jsonPath.trim() === '') {
      ctx.warn(at, container, index, 'This JSON assertion names no jsonpath; it is skipped');
      continue;
    }
    const target = ctx.template(jsonPath.trim(), at, container, index);
    const jsonpath = target.startsWith('$') ? target : `$.${target}`;
    const validate = taurusFlag(spec.validate);
    const invert = taurusFlag(spec.invert);
    const regexp = taurusFlag(spec.regexp, true);
    const expectNull = taurusFlag(spec['expect-null']);
    let rule: FunctionalValidationInput;
    if (!validate) {
      // Only that the path is there (or, inverted, that it is not).
      rule = { type: 'json_path', expected_value: jsonpath, ...(invert ? { negate: true } : {}) };
    } else if (expectNull) {
      // A bare null is JSON null, never a string (docs/design.md §4 "JSON literals").
      rule = { type: 'json_path', expected_value: `${jsonpath} ${invert ? '!=' : '=='} null` };
    } else {
      const expected = ctx.template(scalarText(spec['expected-value']) ?? 'false', at, container, index);
      // A pattern with no regex syntax matches the whole value only when it is that value.
      rule =
        regexp && REGEX_SYNTAX.test(expected)
          ? {
              type: 'json_path',
              expected_value: `${jsonpath} ~ ${wholeValuePattern(expected)}`,
              ...(invert ? { negate: true } : {}),
            }
          : { type: 'json_path', expected_value: `${jsonpath} ${invert ? '!=' : '=='} ${expected}` };
    }
    out.push(...checked([rule], at, container, index, ctx));
    for (const extra of Object.keys(spec)) {
      if (!['jsonpath', 'validate', 'expected-value', 'regexp', 'expect-null', 'invert'].includes(extra)) {
        ctx.warn(
          `${at}${pathKey(extra)}`,
          spec,
          extra,
          `"${extra}" is not a JSON assertion setting Taurus documents; it is skipped`,
        );
      }
    }
  }
  return out;
}

/**
 * JMeter's JSON Assertion matches its regex against the whole value; the model's `~` searches, so the
 * pattern is anchored — unless it already reads "[\s\S]*…[\s\S]*", which is the same either way.
 */
function wholeValuePattern(pattern: string): string {
  const any = '[\\s\\S]*';
  if (
    pattern.length >= 2 * any.length &&
    pattern.startsWith(any) &&
    pattern.endsWith(any) &&
    !pattern.endsWith(`\\${any}`)
  ) {
    return pattern.slice(any.length, pattern.length - any.length);
  }
  return `^(?:${pattern})$`;
}

/** Taurus's `assert-xpath` (JMeter's XPath Assertion). */
export function readAssertXPath(
  list: Plain,
  path: string,
  holder: object,
  key: string,
  ctx: CheckContext,
): FunctionalValidationInput[] {
  const out: FunctionalValidationInput[] = [];
  for (const [item, at, container, index] of items(list, path, holder, key)) {
    const spec = typeof item === 'string' ? { xpath: item } : item;
    const xpath = isPlainMap(spec) ? scalarText(spec.xpath) : undefined;
    if (!isPlainMap(spec) || xpath === undefined || xpath.trim() === '') {
      ctx.warn(at, container, index, 'This XPath assertion names no xpath; it is skipped');
      continue;
    }
    const invert = taurusFlag(spec.invert);
    const rule: FunctionalValidationInput = {
      type: 'xpath',
      expected_value: ctx.template(xpath.trim(), at, container, index),
      ...(invert ? { negate: true } : {}),
    };
    out.push(...checked([rule], at, container, index, ctx));
    if (spec['use-tolerant-parser'] === true || spec.validate === true) {
      ctx.warn(
        at,
        container,
        index,
        'The tolerant parser and schema validation of this XPath assertion are skipped: the XML is read as it is',
      );
    }
  }
  return out;
}

/** The rules the model accepts; each refused one is reported with the model's reason. */
function checked(
  rules: FunctionalValidationInput[],
  path: string,
  container: object,
  key: string | number,
  ctx: CheckContext,
): FunctionalValidationInput[] {
  return rules.filter((rule) => {
    const result = FunctionalValidationSchema.safeParse(rule);
    if (result.success) return true;
    const reason = result.error.issues.map((issue) => issue.message).join('; ');
    ctx.warn(
      path,
      container,
      key,
      `This check (${rule.type} ${rule.expected_value ?? ''}) is skipped: ${reason}`,
    );
    return false;
  });
}

/** Taurus's extractors → captures. */
export function readExtractors(
  kind: 'extract-jsonpath' | 'extract-regexp' | 'extract-boundary',
  map: Plain,
  path: string,
  holder: object,
  key: string,
  ctx: CheckContext,
): Capture[] {
  const out: Capture[] = [];
  if (!isPlainMap(map)) {
    ctx.warn(path, holder, key, `${kind} must map variable names to what they take; it is skipped`);
    return out;
  }
  for (const [name, raw] of Object.entries(map)) {
    const at = `${path}${pathKey(name)}`;
    const spec = isPlainMap(raw) ? raw : { [MAIN_FIELD[kind]]: raw };
    const capture = extractorCapture(kind, name, spec, at, map, ctx);
    if (capture === undefined) continue;
    const result = CaptureSchema.safeParse(capture);
    if (!result.success) {
      const reason = result.error.issues.map((issue) => issue.message).join('; ');
      ctx.warn(at, map, name, `The extraction of ${name} is skipped: ${reason}`);
      continue;
    }
    out.push(result.data);
  }
  return out;
}

const MAIN_FIELD = {
  'extract-jsonpath': 'jsonpath',
  'extract-regexp': 'regexp',
  'extract-boundary': 'left',
} as const;

function extractorCapture(
  kind: 'extract-jsonpath' | 'extract-regexp' | 'extract-boundary',
  name: string,
  spec: Record<string, Plain>,
  at: string,
  holder: object,
  ctx: CheckContext,
): Capture | undefined {
  const skip = (message: string): undefined => {
    ctx.warn(at, holder, name, `The extraction of ${name} is skipped: ${message}`);
    return undefined;
  };
  // Taurus's default for every extractor (bzt/jmx/extractors.py): the variable is never left unset.
  const fallback = scalarText(spec.default) ?? 'NOT_FOUND';
  const subject = scalarText(spec.subject) ?? 'body';
  if (subject !== 'body') return skip(`it reads the ${subject}, and a capture reads the body`);
  const base = { name, default: ctx.template(fallback, at, holder, name) };
  if (kind === 'extract-jsonpath') {
    const expression = scalarText(spec.jsonpath);
    if (expression === undefined || expression.trim() === '') return skip('it names no jsonpath');
    const matchNo = scalarText(spec['match-no']);
    if (matchNo !== undefined && !['0', '1'].includes(matchNo)) {
      ctx.warn(
        at,
        holder,
        name,
        `match-no ${matchNo} of ${name} is skipped: the capture takes the first value`,
      );
    }
    for (const extra of ['from-variable', 'concat', 'scope']) {
      if (spec[extra] !== undefined && spec[extra] !== false) {
        ctx.warn(at, holder, name, `${extra} of ${name} is skipped: the capture reads this call's body`);
      }
    }
    const trimmed = ctx.template(expression.trim(), at, holder, name);
    return { ...base, from: 'json_path', expression: trimmed.startsWith('$') ? trimmed : `$.${trimmed}` };
  }
  if (kind === 'extract-boundary') {
    const left = scalarText(spec.left);
    const right = scalarText(spec.right);
    if (left === undefined || right === undefined) return skip('a boundary extractor needs left and right');
    const pattern = `${escapeJsRegex(ctx.template(left, at, holder, name))}([\\s\\S]*?)${escapeJsRegex(ctx.template(right, at, holder, name))}`;
    return { ...base, from: 'regex', expression: pattern, ...matchNumber(spec, at, holder, name, ctx) };
  }
  const regexp = scalarText(spec.regexp);
  if (regexp === undefined || regexp === '') return skip('it names no regexp');
  const expression = ctx.template(regexp, at, holder, name);
  const groups = groupCount(expression);
  if (groups === undefined) return skip(`/${expression}/ is not a regular expression JavaScript reads`);
  const template = scalarText(spec.template) ?? '1';
  const group = /^\$?(\d{1,2})\$?$/.exec(template.trim())?.[1];
  if (group === undefined)
    return skip(`its template "${template}" joins several groups; a capture takes one group`);
  const wanted = Number(group);
  // The model takes the first group, else the whole match; a different group is written out.
  const implicit = groups > 0 ? 1 : 0;
  return {
    ...base,
    from: 'regex',
    expression,
    ...(wanted === implicit ? {} : { group: wanted }),
    ...matchNumber(spec, at, holder, name, ctx),
  };
}

function matchNumber(
  spec: Record<string, Plain>,
  at: string,
  holder: object,
  name: string,
  ctx: CheckContext,
): { match_no?: number } {
  const text = scalarText(spec['match-no']);
  if (text === undefined || text === '1') return {};
  const n = Number(text);
  if (Number.isInteger(n) && n > 1 && n <= 10_000) return { match_no: n };
  ctx.warn(
    at,
    spec,
    'match-no',
    `match-no ${text} of ${name} (${n === 0 ? 'a random match' : n < 0 ? 'every match' : 'not a match number'}) is skipped: the capture takes the first match`,
  );
  return {};
}

function groupCount(pattern: string): number | undefined {
  return captureGroupCount(pattern);
}

/** The items of a list (or a single item), each with its path, container and index for warnings. */
function items(
  list: Plain,
  path: string,
  holder: object,
  key: string,
): [Plain, string, object, string | number][] {
  if (Array.isArray(list)) return list.map((item, i) => [item, `${path}[${i}]`, list, i]);
  return [[list, path, holder, key]];
}
