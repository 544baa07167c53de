import { dynamicValue, isDynamicVariable, tokenizeTemplate } from '@aqa/plan';

/** Variable and sequence slots of one compiled plan, shared by all its templates. */
export class TemplateScope {
  readonly variables: string[] = [];
  /**
   * Postman's reading of `{{…}}` (a functional plan, docs/adr/0029-postman-collections.md): names are
   * free text, and `{{$guid}}` and the other dynamic variables get a fresh value at each use when no
   * scope holds that name. Off (the load engine), only the strict names of @aqa/plan template.ts.
   */
  constructor(readonly postman = false) {}
  /** Distinct N of `{{sequence_number,N}}`, in slot order. */
  readonly moduli: number[] = [];

  variableSlot(name: string): number {
    let i = this.variables.indexOf(name);
    if (i < 0) i = this.variables.push(name) - 1;
    return i;
  }

  sequenceSlot(n: number): number {
    let i = this.moduli.indexOf(n);
    if (i < 0) i = this.moduli.push(n) - 1;
    return i;
  }
}

/**
 * What a template reads while rendering: this VU's variables and this iteration's sequence values. A
 * name is looked up in Postman's order (docs/adr/0029-postman-collections.md): `vars` (local: the
 * captures, later `pm.variables.set`), then `data` (this iteration's data row), then `scopes` (the
 * environment over the collection variables over the globals, merged once per user).
 */
export interface RenderContext {
  vars: (string | undefined)[];
  data?: (string | undefined)[];
  scopes?: (string | undefined)[];
  /** `{{sequence_number,N}}` of the current iteration, by sequence slot. */
  seq: number[];
}

/** Anything that renders to a header or body value. */
export interface Renderable {
  /** The value when it does not depend on the VU or the iteration, else null. */
  readonly constant: string | null;
  render(ctx: RenderContext): string;
}

const TEXT = 0;
const VARIABLE = 1;
const SEQUENCE = 2;
interface Part {
  kind: typeof TEXT | typeof VARIABLE | typeof SEQUENCE;
  /** Literal text, or the token as written (sent when the variable has no value yet). */
  text: string;
  slot: number;
  /** Percent-encode the substituted value (query parameters). */
  encode: boolean;
  /** A Postman dynamic variable's name (`$guid`), used when no scope holds it; else null. */
  dynamic: string | null;
}

/** The value of the variable in `slot`, in Postman's order of scopes; undefined when none holds it. */
export function lookup(ctx: RenderContext, slot: number): string | undefined {
  return ctx.vars[slot] ?? ctx.data?.[slot] ?? ctx.scopes?.[slot];
}

/**
 * A template compiled once per plan (the plan's tokenizer, then slots): rendering walks a small
 * array with no parsing, and a template without tokens costs nothing. A variable with no value yet
 * is sent as written ("{{token}}"), as the plan's template contract says.
 */
export class Template implements Renderable {
  private readonly parts: Part[] = [];
  constant: string | null = '';

  static of(text: string, scope: TemplateScope, encode = false): Template {
    return new Template().appendTemplate(text, scope, encode);
  }

  static literal(text: string): Template {
    return new Template().append(text, false);
  }

  /** Appends literal text (optionally percent-encoded). */
  append(text: string, encode: boolean): this {
    const value = encode ? encodeURIComponent(text) : text;
    if (this.constant !== null) this.constant += value;
    const last = this.parts[this.parts.length - 1];
    if (last && last.kind === TEXT) last.text += value;
    else this.parts.push({ kind: TEXT, text: value, slot: 0, encode: false, dynamic: null });
    return this;
  }

  /** Appends template text; variables and sequences get slots from `scope`. */
  appendTemplate(text: string, scope: TemplateScope, encode: boolean): this {
    for (const part of tokenizeTemplate(text, { freeNames: scope.postman })) {
      if (part.kind === 'literal') this.append(part.text, encode);
      else if (part.kind === 'variable') {
        this.constant = null;
        const dynamic = scope.postman && isDynamicVariable(part.name) ? part.name : null;
        this.parts.push({
          kind: VARIABLE,
          text: part.raw,
          slot: scope.variableSlot(part.name),
          encode,
          dynamic,
        });
      } else {
        this.constant = null;
        this.parts.push({
          kind: SEQUENCE,
          text: part.raw,
          slot: scope.sequenceSlot(part.max),
          encode: false,
          dynamic: null,
        });
      }
    }
    return this;
  }

  render(ctx: RenderContext): string {
    if (this.constant !== null) return this.constant;
    let out = '';
    const parts = this.parts;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.kind === TEXT) out += p.text;
      else if (p.kind === VARIABLE) {
        const v = lookup(ctx, p.slot) ?? (p.dynamic === null ? undefined : dynamicValue(p.dynamic));
        out += v === undefined ? p.text : p.encode ? encodeURIComponent(v) : v;
      } else out += ctx.seq[p.slot]!;
    }
    return out;
  }
}

/** `Basic base64(username:password)` where either part may hold templates. */
export class BasicAuthValue implements Renderable {
  readonly constant: string | null;

  constructor(
    private readonly username: Template,
    private readonly password: Template,
  ) {
    this.constant =
      username.constant !== null && password.constant !== null
        ? BasicAuthValue.encode(username.constant, password.constant)
        : null;
  }

  static encode(user: string, pass: string): string {
    return `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
  }

  render(ctx: RenderContext): string {
    return this.constant ?? BasicAuthValue.encode(this.username.render(ctx), this.password.render(ctx));
  }
}
