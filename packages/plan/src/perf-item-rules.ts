import type { FunctionalValidation } from './functional/validation';
import type { ValidationItem } from './perf-plan';
import { HEADER_NAME } from './strict-input';

/*
 * A performance plan's validation items read as rules of the call core's one dialect, the functional
 * rule set (packages/plan/src/functional/validation.ts, docs/call-core.md "A performance plan's items").
 * The stored items keep their own looser writing (docs/reference/01-authoring.md §3 "Validation
 * item": `500ms`, `$.name = Ada`, a header value contained, ignoring case); this is the one place it is
 * read, so a plan saved before is judged the same, by the call core's judge, wherever it is judged.
 */

/** A response_time item: milliseconds, "500" or "500ms". */
const TIME = /^(\d+(?:\.\d+)?)\s*(?:ms)?$/i;
/** A response_size item: bytes, "1024" or "1024 bytes". */
const SIZE = /^(\d+)\s*(?:b|bytes?)?$/i;
/**
 * A status_code item's options: a status or a class, separated by commas. Wider than the dialect's own
 * reading (validation.ts: 100–599, 1xx–5xx): an item such as "999" has been judged, and answered
 * "Status 200 is not 999", not refused as a value of another type.
 */
const STATUS_OPTION = /^\d{3}$|^\dxx$/;

export type JsonPathItemOperator = '=' | '==' | '!=';

/** A json_path item's parts: "path", "path = value", "path == value" or "path != value". */
export interface JsonPathItem {
  path: string;
  operator?: JsonPathItemOperator;
  value: string;
}

/**
 * The rule of the one dialect an item is judged by, or null when its expected value is not of its
 * type ("ok" for a status): the caller says so in its own words. The expected value is trimmed.
 */
export function perfItemRule(item: ValidationItem): FunctionalValidation | null {
  const expected = item.expected_value.trim();
  const rule = (
    fields: Pick<FunctionalValidation, 'type' | 'expected_value'> & Partial<FunctionalValidation>,
  ) => ({ id: item.id, name: item.name, description: '', enabled: true, ...fields }) as FunctionalValidation;
  switch (item.type) {
    case 'status_code': {
      const options = expected.split(',').map((o) => o.trim().toLowerCase());
      return options.every((o) => STATUS_OPTION.test(o))
        ? rule({ type: 'status_code', expected_value: expected })
        : null;
    }
    case 'response_time': {
      const limit = TIME.exec(expected)?.[1];
      return limit === undefined ? null : rule({ type: 'response_time', expected_value: limit });
    }
    case 'response_size': {
      const limit = SIZE.exec(expected)?.[1];
      return limit === undefined ? null : rule({ type: 'response_size', expected_value: limit });
    }
    case 'contains_text':
      return rule({ type: 'contains_text', expected_value: expected });
    case 'header_value':
      return rule({ type: 'regex', subject: 'headers', expected_value: headerPattern(expected) });
    case 'json_path': {
      const { path, operator, value } = splitJsonPathItem(expected);
      const dialectPath = jsonPathOfDialect(path);
      if (operator === undefined) return rule({ type: 'json_path', expected_value: dialectPath });
      const op = operator === '!=' ? '!=' : '==';
      // The dialect needs a value after its operator: an empty one is the empty text.
      return rule({
        type: 'json_path',
        expected_value: `${dialectPath} ${op} ${value === '' ? '""' : value}`,
      });
    }
  }
}

/**
 * A header_value item as a search of the header lines (`name: value`, one a line), ignoring case:
 * "Name: value" holds when that header's value contains the text; "Name" alone when the header is
 * present; text that cannot be a header name ("application/json") when any header's value contains it.
 */
export function headerItemParts(expected: string): { name: string | null; wanted: string } {
  const colon = expected.indexOf(':');
  const name = (colon === -1 ? expected : expected.slice(0, colon)).trim();
  if (!HEADER_NAME.test(name)) return { name: null, wanted: expected };
  return { name, wanted: colon === -1 ? '' : expected.slice(colon + 1).trim() };
}

function headerPattern(expected: string): string {
  const { name, wanted } = headerItemParts(expected);
  // `(?im)`: case-insensitive, `^` at each line's start (the linear-time engine's flags, docs/adr/0022).
  const line = name === null ? '[^:\\n]*' : escapePattern(name);
  return `(?im)^${line}: [^\\n]*${escapePattern(wanted)}`;
}

const PATTERN_SPECIAL = /[\\^$.|?*+()[\]{}]/g;

function escapePattern(text: string): string {
  return text.replace(PATTERN_SPECIAL, '\\$&');
}

/**
 * A JSON path as the dialect writes it: with its leading `$` ("user.name" is "$.user.name", as the
 * engine reads it, call/json-path.ts) and without blanks outside quotes, which the dialect's
 * `path op value` reading splits at ("$.items[?(@.id == 2)]" is "$.items[?(@.id==2)]").
 */
function jsonPathOfDialect(path: string): string {
  let compact = '';
  let quote: string | undefined;
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (quote !== undefined) {
      compact += c;
      if (c === '\\' && i + 1 < path.length) compact += path[++i];
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
      compact += c;
    } else if (!/\s/.test(c)) compact += c;
  }
  if (compact === '' || compact.startsWith('$')) return compact === '' ? '$' : compact;
  return compact.startsWith('.') || compact.startsWith('[') ? `$${compact}` : `$.${compact}`;
}

/** Splits "path op value" at the first =, == or != outside brackets, parentheses and quotes. */
export function splitJsonPathItem(expected: string): JsonPathItem {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < expected.length; i++) {
    const c = expected[i];
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === '=' || (c === '!' && expected[i + 1] === '='))) {
      const operator: JsonPathItemOperator = c === '!' ? '!=' : expected[i + 1] === '=' ? '==' : '=';
      return {
        path: expected.slice(0, i).trim(),
        operator,
        value: expected.slice(i + (operator === '=' ? 1 : 2)).trim(),
      };
    }
  }
  return { path: expected.trim(), value: '' };
}
