import { PLAN_FILTERS } from '@aqa/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { PlanRow } from '../db/schema';
import { foldForSearch } from '../db/search-text';

/** The dashboard's filters are a wire vocabulary: the contract's DashboardQuerySchema names them. */
export { PLAN_FILTERS };
export type PlanFilter = (typeof PLAN_FILTERS)[number];

export interface PlanSearch {
  /** Text to find in the name or description, case-insensitive; '' finds every plan. */
  q: string;
  filter: PlanFilter;
  limit: number;
  offset: number;
}

/** A plan as the dashboard lists it: without its script, which the cards never show. */
export type DashboardPlanRow = Omit<
  PlanRow,
  'script' | 'script_edited' | 'user_id' | 'workspace_id' | 'search_text' | 'version'
>;

export interface RecentRunRow {
  plan_id: string;
  id: string;
  status: string;
  started_at: string;
}

export interface TrendRunRow {
  plan_id: string;
  id: string;
  started_at: string;
  percentile_95: number | null;
  error_rate: number | null;
}

const PLAN_COLUMNS = [
  'plans.id',
  'plans.name',
  'plans.description',
  'plans.tool',
  'plans.concurrent_users',
  'plans.duration',
  'plans.source_page',
  'plans.test_type',
  'plans.kind',
  'plans.schema_version',
  'plans.body',
  'plans.baseline_run_id',
  'plans.created_at',
  'plans.updated_at',
] as const;

/** The user's text as a LIKE pattern that matches it anywhere, its % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The performance dashboard's reads: one page of the user's plans (searched and filtered in SQL)
 * and, for that page's plans only, their run counts, latest runs and trends. Plans are read with
 * their owner; runs are read by the ids of those plans, whose runs are always the plan owner's (a
 * run is started only from its user's own plan). Filtering runs by user_id as well would make
 * SQLite walk all the user's runs through the user index instead of each plan's few.
 */
export class DashboardRepository {
  constructor(private readonly db: Db) {}

  async searchPlans(
    workspaceId: string,
    search: PlanSearch,
  ): Promise<{ rows: DashboardPlanRow[]; total: number }> {
    let query = this.db.selectFrom('plans').where('plans.workspace_id', '=', workspaceId);
    if (search.q !== '') {
      // Both sides folded in JavaScript (SQLite folds ASCII only); ESCAPE makes the user's % and _ plain.
      const pattern = containsPattern(foldForSearch(search.q));
      query = query.where(sql<boolean>`plans.search_text like ${pattern} escape '\\'`);
    }
    if (search.filter !== 'all') {
      const hasRuns = sql<boolean>`exists (select 1 from runs where runs.plan_id = plans.id)`;
      query = query.where(search.filter === 'with_results' ? hasRuns : sql<boolean>`not ${hasRuns}`);
    }
    const [rows, count] = await Promise.all([
      query
        .select(PLAN_COLUMNS)
        .orderBy('plans.created_at', 'desc')
        .orderBy('plans.id', 'desc')
        .limit(search.limit)
        .offset(search.offset)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** How many runs each of these plans has (plans without runs are absent). */
  async runCounts(planIds: string[]): Promise<Map<string, number>> {
    if (planIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('runs')
      .select(['plan_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('plan_id', 'in', planIds)
      .groupBy('plan_id')
      .execute();
    return new Map(rows.map((row) => [row.plan_id ?? '', Number(row.count)]));
  }

  /** The newest `perPlan` runs of each of these plans, newest first within a plan. */
  async latestRuns(planIds: string[], perPlan: number): Promise<RecentRunRow[]> {
    if (planIds.length === 0) return [];
    const ranked = this.db
      .selectFrom('runs')
      .select((eb) => [
        'plan_id',
        'id',
        'status',
        'started_at',
        eb.fn
          .agg<number>('row_number')
          .over((ob) => ob.partitionBy('plan_id').orderBy('started_at', 'desc').orderBy('id'))
          .as('rank'),
      ])
      .where('plan_id', 'in', planIds);
    const rows = await this.db
      .selectFrom(ranked.as('r'))
      .select(['r.plan_id', 'r.id', 'r.status', 'r.started_at'])
      .where('r.rank', '<=', perPlan)
      .orderBy('r.plan_id')
      .orderBy('r.rank')
      .execute();
    return rows.map((row) => ({ ...row, plan_id: row.plan_id ?? '' }));
  }

  /** The last `perPlan` completed runs of each of these plans with their p95 and error rate, oldest first. */
  async trends(planIds: string[], perPlan: number): Promise<TrendRunRow[]> {
    if (planIds.length === 0) return [];
    const ranked = this.db
      .selectFrom('runs')
      .select((eb) => [
        'plan_id',
        'id',
        'started_at',
        'percentile_95',
        'error_rate',
        eb.fn
          .agg<number>('row_number')
          .over((ob) => ob.partitionBy('plan_id').orderBy('started_at', 'desc').orderBy('id'))
          .as('rank'),
      ])
      .where('plan_id', 'in', planIds)
      .where('status', '=', 'completed');
    const rows = await this.db
      .selectFrom(ranked.as('r'))
      .select(['r.plan_id', 'r.id', 'r.started_at', 'r.percentile_95', 'r.error_rate'])
      .where('r.rank', '<=', perPlan)
      .orderBy('r.plan_id')
      .orderBy('r.rank', 'desc')
      .execute();
    return rows.map((row) => ({ ...row, plan_id: row.plan_id ?? '' }));
  }
}
