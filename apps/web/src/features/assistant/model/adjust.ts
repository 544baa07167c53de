import {
  applyFunctionalTextCommand,
  applyTextCommand,
  parseFunctionalTextCommand,
  parseTextCommand,
  profileChangeText,
  type Authorization,
  type FunctionalPlan,
  type PerfPlan,
} from '@aqa/plan';

/**
 * "Adjust current test plan" (docs/design.md §10): a command read by the one text-command parser against
 * the plan on screen, and the change it makes as a before → after row per field. The rows are computed
 * from the plan and the changed plan, so what the preview shows is exactly what Apply puts in the form.
 */

export type EditedPlan =
  { kind: 'performance'; plan: PerfPlan } | { kind: 'functional'; plan: FunctionalPlan };

export type PreviewField =
  | 'name'
  | 'tool'
  | 'users'
  | 'duration'
  | 'iterations'
  | 'thinkTime'
  | 'timeout'
  | 'transactionRate'
  | 'method'
  | 'header'
  | 'authorization'
  | 'api'
  | 'loadProfile';

export interface PreviewRow {
  field: PreviewField;
  /** The API the row is about: its number (1-based, in the plan before the change) and name. */
  api?: { number: number; name: string };
  /** The header's name, for header rows. */
  header?: string;
  /** Null: the field had no value (a header that did not exist) or, for `after`, the API is removed. */
  before: string | null;
  after: string | null;
}

export interface AdjustPreview {
  before: EditedPlan;
  after: EditedPlan;
  rows: PreviewRow[];
  /** What the parser did not understand or refused, in its words; none of it is applied. */
  problems: string[];
}

/** Reads `command` against the plan; null rows and only problems when nothing could be understood. */
export function previewCommand(command: string, current: EditedPlan): AdjustPreview {
  if (current.kind === 'performance') {
    const { updates, errors } = parseTextCommand(command, current.plan);
    const next = applyTextCommand(current.plan, updates);
    const after: EditedPlan = { kind: 'performance', plan: next };
    return { before: current, after, rows: diffRows(current, after, removedOf(updates)), problems: errors };
  }
  const { updates, errors } = parseFunctionalTextCommand(command, current.plan);
  const next = applyFunctionalTextCommand(current.plan, updates);
  const after: EditedPlan = { kind: 'functional', plan: next };
  return { before: current, after, rows: diffRows(current, after, removedOf(updates)), problems: errors };
}

function removedOf(updates: readonly { field: string; scope: unknown }[]): Set<number> {
  return new Set(
    updates.flatMap((update) =>
      update.field === 'removeApi' && typeof update.scope === 'object' && update.scope !== null
        ? [(update.scope as { api: number }).api]
        : [],
    ),
  );
}

interface Cell {
  key: string;
  field: PreviewField;
  header?: string;
  value: string;
}

interface ApiView {
  name: string;
  cells: Cell[];
}

function authText(auth: Authorization): string {
  // A token is a secret: the preview says that one is set, never what it is.
  return auth.type === 'none' ? 'none' : auth.token ? `${auth.type} (token set)` : auth.type;
}

function headerCells(headers: readonly { name: string; value: string }[]): Cell[] {
  return headers.map((header) => ({
    key: `header:${header.name.toLowerCase()}`,
    field: 'header',
    header: header.name,
    value: header.value,
  }));
}

function planCells(edited: EditedPlan): Cell[] {
  if (edited.kind === 'performance') {
    const { plan } = edited;
    return [
      { key: 'name', field: 'name', value: plan.name },
      { key: 'tool', field: 'tool', value: plan.tool },
      { key: 'users', field: 'users', value: String(plan.concurrent_users) },
      { key: 'duration', field: 'duration', value: `${plan.duration} min` },
      // "ramp up over 2 minutes", "add a spike to 500 users" (docs/adr/0027-load-profiles.md).
      {
        key: 'loadProfile',
        field: 'loadProfile',
        value: plan.load_profile ? profileChangeText(plan.load_profile) : '—',
      },
    ];
  }
  const { plan } = edited;
  return [
    { key: 'name', field: 'name', value: plan.test_name },
    { key: 'users', field: 'users', value: String(plan.concurrent_users) },
    { key: 'iterations', field: 'iterations', value: String(plan.iterations) },
    { key: 'duration', field: 'duration', value: `${plan.test_duration} min` },
    { key: 'thinkTime', field: 'thinkTime', value: `${plan.think_time}s` },
  ];
}

function apiViews(edited: EditedPlan): ApiView[] {
  if (edited.kind === 'performance') {
    return edited.plan.urls.map((entry, index) => ({
      name: entry.name ?? `API ${index + 1}`,
      cells: [
        { key: 'method', field: 'method', value: entry.method },
        { key: 'thinkTime', field: 'thinkTime', value: entry.thinkTime },
        { key: 'timeout', field: 'timeout', value: `${entry.timeout}s` },
        {
          key: 'transactionRate',
          field: 'transactionRate',
          value: entry.transactionRate === '' ? '' : `${entry.transactionRate}%`,
        },
        { key: 'authorization', field: 'authorization', value: authText(entry.authorization) },
        ...headerCells(entry.headers),
      ],
    }));
  }
  return edited.plan.apis.map((api) => ({
    name: api.name,
    cells: [
      { key: 'method', field: 'method', value: api.method },
      { key: 'timeout', field: 'timeout', value: `${api.timeout}s` },
      { key: 'authorization', field: 'authorization', value: authText(api.authorization) },
      ...headerCells(Object.entries(api.headers).map(([name, value]) => ({ name, value }))),
    ],
  }));
}

/** Every field whose value differs, in the plan's order; the changed plan's APIs are matched to the old by index. */
function diffRows(before: EditedPlan, after: EditedPlan, removed: ReadonlySet<number>): PreviewRow[] {
  const rows: PreviewRow[] = cellRows(planCells(before), planCells(after));
  const oldApis = apiViews(before);
  const newApis = apiViews(after);
  // Removals are the only change to the list: the kept APIs keep their order.
  const kept = oldApis.map((_, index) => index).filter((index) => !removed.has(index));
  oldApis.forEach((old, index) => {
    const api = { number: index + 1, name: old.name };
    if (removed.has(index)) {
      rows.push({ field: 'api', api, before: old.name, after: null });
      return;
    }
    const now = newApis[kept.indexOf(index)];
    if (now) rows.push(...cellRows(old.cells, now.cells).map((row) => ({ ...row, api })));
  });
  return rows;
}

function cellRows(before: readonly Cell[], after: readonly Cell[]): PreviewRow[] {
  const rows: PreviewRow[] = [];
  const afterByKey = new Map(after.map((cell) => [cell.key, cell]));
  const beforeKeys = new Set(before.map((cell) => cell.key));
  for (const cell of before) {
    const next = afterByKey.get(cell.key);
    if (next?.value === cell.value) continue;
    rows.push(row(cell, cell.value, next?.value ?? null));
  }
  for (const cell of after) {
    if (!beforeKeys.has(cell.key)) rows.push(row(cell, null, cell.value));
  }
  return rows;
}

function row(cell: Cell, before: string | null, after: string | null): PreviewRow {
  return { field: cell.field, ...(cell.header ? { header: cell.header } : {}), before, after };
}

/** Whether two readings of the plan are the same plan (the user may have edited it since the preview). */
export function samePlan(a: EditedPlan, b: EditedPlan): boolean {
  return a.kind === b.kind && JSON.stringify(a.plan) === JSON.stringify(b.plan);
}
