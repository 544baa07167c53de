import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import {
  compileUserPattern,
  type FunctionalValidation,
  type InnerPhrase,
  innerPhrase,
  said,
  type Said,
  type SchemaViolation,
  type ValidationDetail,
} from '@aqa/plan';
import { draft4Exclusive } from '@aqa/converters';
import { parseJsonBody, quote } from './judge';

/*
 * The `schema` rule (docs/design.md §9): the response body against the JSON Schema the importer wrote
 * as the rule's expected value (the OpenAPI document's response schema, $refs inlined). OpenAPI 3.0
 * writes a few things its own way (nullable, boolean exclusive bounds), which are rewritten to JSON
 * Schema first; keywords a validator does not know (example, xml, discriminator) are ignored. Each
 * violation is named by its JSON Pointer in the body, in words.
 */

/** How many violations a detail lists, and how many its message quotes. */
const MAX_VIOLATIONS = 50;
const QUOTED_VIOLATIONS = 5;

type Judged = ValidateFunction | { problem: string };

/**
 * A schema's `pattern` and `patternProperties` run on the linear-time engine, as every user pattern
 * (docs/adr/0022-linear-time-patterns.md); one it cannot run makes the schema unusable, said in words.
 */
const linearRegExp: NonNullable<NonNullable<ConstructorParameters<typeof Ajv>[0]>['code']>['regExp'] =
  Object.assign((pattern: string) => compileUserPattern(pattern), {
    code: 'compileUserPattern',
  });

// ajv-formats is CommonJS with its plugin as `default`; under ESM interop the namespace may be the plugin.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ??
  addFormatsPlugin) as (ajv: Ajv, options: { keywords: boolean }) => Ajv;

/** Judges `schema` rules for one run; each distinct schema is compiled once and kept. */
export class SchemaJudge {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, Judged>();

  constructor() {
    this.ajv = new Ajv({
      strict: false,
      allErrors: true,
      verbose: true,
      logger: false,
      validateFormats: true,
      code: { regExp: linearRegExp },
    });
    // Only the formats: ajv-formats' limit keywords would run another copy of ajv's code generator.
    addFormats(this.ajv, { keywords: false });
  }

  /**
   * `body` is the body as read (its first bytes when `complete` is false); `failure` says why there is
   * no response at all.
   */
  judge(
    validation: FunctionalValidation,
    response: { body: string; complete: boolean } | null,
    failure: InnerPhrase | string = innerPhrase('judge.nothingCame'),
  ): ValidationDetail {
    const expected = quote(validation.expected_value);
    const detail = (
      passed: boolean,
      actual: string | null,
      message: Said,
      violations?: SchemaViolation[],
    ) => ({
      type: 'schema' as const,
      ...(validation.name === '' ? {} : { name: validation.name }),
      expected,
      actual,
      passed,
      message: message.text,
      message_phrase: message.phrase,
      ...(violations === undefined ? {} : { violations }),
    });
    if (response === null) {
      return detail(
        false,
        null,
        said('judge.noResponse', { expectation: innerPhrase('expect.schema'), failure }),
      );
    }
    const validate = this.validator(validation.expected_value);
    if ('problem' in validate)
      return detail(false, null, said('judge.schema.unusable', { problem: validate.problem }));
    if (!response.complete) {
      return detail(false, null, said('judge.schema.tooLarge'));
    }
    const parsed = parseJsonBody(response, detail, said('judge.schema.notJson'));
    if (!('json' in parsed)) return parsed;
    const { json } = parsed;
    if (validate(json)) return detail(true, 'conforms', said('judge.schema.conforms'), []);
    const errors = validate.errors ?? [];
    const violations = errors.slice(0, MAX_VIOLATIONS).map(violation);
    const n = errors.length;
    const listed = violations
      .slice(0, QUOTED_VIOLATIONS)
      .map((v) => (v.path === '/' ? `/ ${v.message}` : `${v.path} ${v.message}`));
    // Each violation stays in the validator's English (docs/adr/0025-phrases.md): the sentence around them is worded.
    const params = { count: n, listed: listed.join('; '), more: n - listed.length };
    return detail(
      false,
      `${n} violation${n === 1 ? '' : 's'}`,
      said(n > listed.length ? 'judge.schema.violationsMore' : 'judge.schema.violations', params),
      violations,
    );
  }

  private validator(text: string): Judged {
    let judged = this.compiled.get(text);
    if (judged === undefined) {
      try {
        judged = this.ajv.compile(openApiToJsonSchema(JSON.parse(text)) as object);
      } catch (e) {
        judged = { problem: e instanceof Error ? e.message : String(e) };
      }
      this.compiled.set(text, judged);
    }
    return judged;
  }
}

/** One ajv error as a violation: where (a JSON Pointer, "/" for the whole body) and what, in words. */
function violation(error: ErrorObject): SchemaViolation {
  const path = error.instancePath === '' ? '/' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path, message: `is missing required property ${String(params.missingProperty)}` };
    case 'additionalProperties':
      return {
        path,
        message: `has property ${String(params.additionalProperty)}, which the schema does not allow`,
      };
    case 'enum':
      return {
        path,
        message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'type':
      return { path, message: `${error.message ?? 'has the wrong type'}, not ${typeName(error.data)}` };
    default:
      return { path, message: error.message ?? `fails ${error.keyword}` };
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const NOT_SCHEMAS = new Set(['enum', 'const', 'example', 'examples', 'default']);

/**
 * OpenAPI 3.0's schema dialect as JSON Schema: `nullable: true` adds null to the type (and to an enum),
 * boolean exclusiveMinimum/exclusiveMaximum become the bound itself, and `$schema` is dropped so
 * any dialect's document is read by the one validator. Values (enum, example, default) are left alone.
 */
export function openApiToJsonSchema(node: unknown, isRoot = true): unknown {
  if (Array.isArray(node)) return node.map((item) => openApiToJsonSchema(item, false));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    out[key] = NOT_SCHEMAS.has(key) ? value : openApiToJsonSchema(value, false);
  }
  if (isRoot) delete out.$schema;
  if (typeof out.nullable === 'boolean') {
    if (out.nullable) {
      if (typeof out.type === 'string') out.type = [out.type, 'null'];
      else if (Array.isArray(out.type) && !out.type.includes('null'))
        out.type = [...(out.type as unknown[]), 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
    }
    delete out.nullable;
  }
  // The same rewriting the import applies to a documented response schema.
  draft4Exclusive(out);
  return out;
}
