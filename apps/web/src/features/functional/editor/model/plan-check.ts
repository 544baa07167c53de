import { FunctionalPlanSchema, type FunctionalPlan, type FunctionalPlanInput } from '@aqa/plan';
import { isBlankCapture, planBodyOf, type FunctionalForm, type ListSource } from './functional-form';

/**
 * The form judged by the one schema (FunctionalPlanSchema, docs/design.md §9): the plan to send, or its
 * problems — each with the field it belongs to in the form, and in the order of the form (test name, the
 * API list and each API top to bottom, then the numbers), so the first one is the reference's first
 * (docs/reference/02-running.md §5).
 */

export interface Problem {
  /** The form field: 'test_name', 'iterations', 'apis', or per API `api:<entryId>:<field>`. */
  field: string;
  message: string;
  /** 1-based, for an API's problem. */
  apiNumber?: number;
}

export type PlanCheck =
  | { ok: true; body: FunctionalPlanInput; plan: FunctionalPlan; problems: [] }
  | { ok: false; body: FunctionalPlanInput; problems: Problem[] };

const SETTINGS_ORDER = ['concurrent_users', 'iterations', 'ramp_up_time', 'test_duration', 'think_time'];

/** A plan-level field's place: name and description first, the APIs, then the numbers. */
function rank(path: readonly PropertyKey[]): number[] {
  const [head, index] = path;
  if (head === 'test_name') return [0];
  if (head === 'description') return [1];
  if (head === 'apis') {
    // Within an API the schema's own order stands (the sort is stable).
    return typeof index === 'number' ? [2, index] : [2, -1];
  }
  const setting = SETTINGS_ORDER.indexOf(String(head));
  return [3, setting < 0 ? SETTINGS_ORDER.length : setting];
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const diff = (a[i] ?? -2) - (b[i] ?? -2);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** Where an API's problem shows in its card: the card's own field names, rows by their ids. */
function apiField(form: FunctionalForm, index: number, rest: readonly PropertyKey[]): string {
  const api = form.apis[index];
  if (!api) return 'apis';
  const prefix = `api:${api.entry.id}:`;
  const [field, sub, subField] = rest;
  switch (field) {
    case 'validations': {
      const rule = typeof sub === 'number' ? api.rules[sub] : undefined;
      return rule ? `${prefix}rule.${rule.id}` : `${prefix}rules`;
    }
    case 'captures': {
      const sent = api.captures.filter((capture) => !isBlankCapture(capture));
      const capture = typeof sub === 'number' ? sent[sub] : undefined;
      return capture ? `${prefix}capture.${capture.id}.${String(subField ?? 'name')}` : `${prefix}captures`;
    }
    case 'headers': {
      const row = api.entry.headers.find((item) => item.name.trim() === String(sub));
      return row ? `${prefix}headers.${row.id}.name` : `${prefix}headers`;
    }
    case 'authorization':
      return `${prefix}authorization.${String(sub ?? 'type')}`;
    case 'body':
      return `${prefix}payload`;
    default:
      return `${prefix}${String(field ?? 'name')}`;
  }
}

/** The URL screen's form judged; the UI screen's with its source, whose messages name UI tests. */
export function checkFunctionalForm(form: FunctionalForm, source: ListSource = 'url_input'): PlanCheck {
  const body = planBodyOf(form, source);
  const parsed = FunctionalPlanSchema.safeParse(body);
  if (parsed.success) return { ok: true, body, plan: parsed.data, problems: [] };
  const seen = new Set<string>();
  const problems = [...parsed.error.issues]
    .sort((a, b) => compareRanks(rank(a.path), rank(b.path)))
    .flatMap((issue): Problem[] => {
      const [head, index, ...rest] = issue.path;
      const inApi = head === 'apis' && typeof index === 'number';
      const field = inApi ? apiField(form, index, rest) : String(head ?? 'test_name');
      const key = `${field}\n${issue.message}`;
      if (seen.has(key)) return [];
      seen.add(key);
      return [{ field, message: issue.message, ...(inApi ? { apiNumber: index + 1 } : {}) }];
    });
  return { ok: false, body, problems };
}

/** Problems grouped where a list screen shows them: plan fields by name, a card's fields per card. */
export function problemsByField(problems: readonly Problem[]) {
  const plan: Record<string, string> = {};
  const apis: Record<string, Record<string, string>> = {};
  for (const { field, message } of problems) {
    const match = /^api:([^:]+):(.+)$/.exec(field);
    if (match?.[1] && match[2]) {
      const card = (apis[match[1]] ??= {});
      card[match[2]] ??= message;
    } else {
      plan[field] ??= message;
    }
  }
  return { plan, apis };
}

/** A card's problems under one key prefix ('rule.'), keyed by the rest: what a card's panel is given. */
export function problemsUnder(errors: Record<string, string>, prefix: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, message]) => [key.slice(prefix.length), message]),
  );
}
