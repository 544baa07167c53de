/**
 * Templates inside URL entries (docs/design.md §4), shared by the generators and the engine:
 *   {{name}}                 a variable that this VU extracted earlier (extractName of an earlier step);
 *   {{sequence_number,N}}    a counter 1..N shared by the whole run that wraps after N.
 *
 * Sequence contract: one counter per distinct N. It advances once per VU iteration (taking the next value
 * of the run-wide counter), and every {{sequence_number,N}} of that iteration sees the same value, so a
 * POST of user{{sequence_number,100}} and a later GET of it in the same iteration agree. With a 0-based
 * run-wide iteration index i, the value is (i mod N) + 1; a shard that owns every k-th iteration keeps this
 * exact by stride (docs/design.md §8).
 *
 * Anything else between double braces ("{{ not a var }}", "{{sequence_number,0}}") is plain text and is
 * sent as written.
 *
 * A functional plan reads names as Postman does (`{ freeNames: true }`, docs/adr/0029-postman-collections.md):
 * any text without braces or line breaks between `{{` and `}}` is a name ("{{base url}}", "{{$guid}}"),
 * used as written, except that spaces around a name of the strict shape are trimmed as before. A name
 * with no value is sent as written either way, so reading more names changes no sent byte by itself.
 */

/** Where templates are expanded: url, parameter values, header values, payload, bearer token, basic
 * username and password, api key value. Keys, header names, assertions and OAuth2 client settings are
 * literal text. */
export const TEMPLATED_FIELDS = [
  'url',
  'parameters[].value',
  'headers[].value',
  'payload',
  'authorization.token',
  'authorization.username',
  'authorization.password',
  'authorization.keyValue',
] as const;

/** A variable name: what extractName may hold and what {{name}} can refer to. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** The largest N of {{sequence_number,N}}. */
export const MAX_SEQUENCE = 1_000_000_000;

export type TemplatePart =
  | { kind: 'literal'; text: string }
  | { kind: 'variable'; name: string; raw: string }
  | { kind: 'sequence'; max: number; raw: string };

const VARIABLE_BODY = /^\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*$/;
/** A Postman name: free text without braces or line breaks (functional-plan.ts PLAN_VARIABLE_NAME). */
const FREE_VARIABLE_BODY = /^[^{}\r\n]+$/;

export interface TokenizeOptions {
  /** Postman's free-text names (a functional plan's templates); off, the strict VARIABLE_NAME. */
  freeNames?: boolean;
}
const SEQUENCE_BODY = /^\s*sequence_number\s*,\s*(\d+)\s*$/;

/** Splits text into literal, variable and sequence parts; adjacent literal text is merged. */
export function tokenizeTemplate(text: string, options: TokenizeOptions = {}): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{{', i);
    if (open === -1) {
      literal += text.slice(i);
      break;
    }
    const close = text.indexOf('}}', open + 2);
    if (close === -1) {
      literal += text.slice(i);
      break;
    }
    const raw = text.slice(open, close + 2);
    const part = templatePart(text.slice(open + 2, close), raw, options.freeNames === true);
    if (part) {
      literal += text.slice(i, open);
      if (literal) parts.push({ kind: 'literal', text: literal });
      literal = '';
      parts.push(part);
      i = close + 2;
    } else {
      // Not a template: keep one brace as text and look again from the next character, so that
      // "{{{token}}}" still finds {{token}} inside the extra braces.
      literal += text.slice(i, open + 1);
      i = open + 1;
    }
  }
  if (literal) parts.push({ kind: 'literal', text: literal });
  return parts;
}

function templatePart(body: string, raw: string, freeNames: boolean): TemplatePart | undefined {
  const sequence = SEQUENCE_BODY.exec(body);
  if (sequence) {
    const max = Number(sequence[1]);
    if (Number.isSafeInteger(max) && max >= 1 && max <= MAX_SEQUENCE) return { kind: 'sequence', max, raw };
    return undefined;
  }
  const variable = VARIABLE_BODY.exec(body);
  if (variable?.[1]) return { kind: 'variable', name: variable[1], raw };
  if (freeNames && FREE_VARIABLE_BODY.test(body) && body.trim() !== '')
    return { kind: 'variable', name: body, raw };
  return undefined;
}

/** The value of {{sequence_number,max}} for the run-wide 0-based iteration index. */
export function sequenceValue(iterationIndex: number, max: number): number {
  return (iterationIndex % max) + 1;
}

/** Every variable name that text refers to, in order of first use. */
export function templateVariables(text: string): string[] {
  const names: string[] = [];
  for (const part of tokenizeTemplate(text)) {
    if (part.kind === 'variable' && !names.includes(part.name)) names.push(part.name);
  }
  return names;
}

/** Every N of {{sequence_number,N}} that text uses. */
export function templateSequences(text: string): number[] {
  const maxes: number[] = [];
  for (const part of tokenizeTemplate(text)) {
    if (part.kind === 'sequence' && !maxes.includes(part.max)) maxes.push(part.max);
  }
  return maxes;
}

/**
 * Expands parts with this VU's variables and this iteration's sequence values. A variable that has no value
 * yet (its step was skipped or its extraction found nothing) stays as written, e.g. "{{token}}".
 */
export function renderTemplate(
  parts: readonly TemplatePart[],
  variables: Readonly<Record<string, string>>,
  sequences: ReadonlyMap<number, number>,
): string {
  let out = '';
  for (const part of parts) {
    if (part.kind === 'literal') out += part.text;
    else if (part.kind === 'variable')
      out += Object.hasOwn(variables, part.name) ? (variables[part.name] ?? '') : part.raw;
    else out += String(sequences.get(part.max) ?? part.raw);
  }
  return out;
}
