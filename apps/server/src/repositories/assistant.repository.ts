import type { TestKind } from '@aqa/plan';
import type { Db } from '../db/database';
import { lockUserForTransaction } from '../db/dialect';
import type { AssistantTurnRow, NewAssistantTurnRow } from '../db/schema';

/** How many of the user's newest runs of each kind James reads; older ones do not change its advice. */
export const ASSISTANT_RUNS_READ = 200;

/** A performance plan as James reads it: its settings and URL entries, not its script. */
export interface AssistantPlanRow {
  id: string;
  name: string;
  concurrent_users: number;
  duration: number;
  source_page: string;
  schema_version: number;
  body: string;
  baseline_run_id: string | null;
  created_at: string;
}

/** A performance run as James reads it: the figures stored when it ended. */
export interface AssistantRunRow {
  id: string;
  plan_id: string | null;
  plan_name: string;
  test_name: string | null;
  status: string;
  concurrent_users: number;
  started_at: string;
  ended_at: string | null;
  summary: string | null;
  api_results: string | null;
}

/** The columns of an `AssistantRunRow`, read alike for the newest runs and for the plans' baselines. */
const PERF_RUN_COLUMNS = [
  'id',
  'plan_id',
  'plan_name',
  'test_name',
  'status',
  'concurrent_users',
  'started_at',
  'ended_at',
  'summary',
  'api_results',
] as const;

/** A functional plan as James reads it. */
export interface AssistantFunctionalPlanRow {
  id: string;
  name: string;
  kind: TestKind;
  body: string;
  created_at: string;
}

/** A functional run as James reads it: its summary and the head of its result (which holds api_results). */
export interface AssistantFunctionalRunRow {
  id: string;
  plan_id: string | null;
  test_name: string;
  status: string;
  start_time: string;
  end_time: string | null;
  error: string | null;
  summary: string | null;
  head: string | null;
}

/**
 * What James reads of a user's plans and runs, and its conversation with them (docs/design.md §10).
 * Every read names the owner, so nothing of another user's can reach an answer.
 */
export class AssistantRepository {
  constructor(private readonly db: Db) {}

  perfPlans(workspaceId: string): Promise<AssistantPlanRow[]> {
    return this.db
      .selectFrom('plans')
      .select([
        'id',
        'name',
        'concurrent_users',
        'duration',
        'source_page',
        'schema_version',
        'body',
        'baseline_run_id',
        'created_at',
      ])
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /** The user's newest performance runs, newest first. */
  perfRuns(workspaceId: string): Promise<AssistantRunRow[]> {
    return this.db
      .selectFrom('runs')
      .select(PERF_RUN_COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(ASSISTANT_RUNS_READ)
      .execute();
  }

  /** The plans' baseline runs, wherever they are among the user's runs. */
  perfRunsById(workspaceId: string, ids: string[]): Promise<AssistantRunRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('runs')
      .select(PERF_RUN_COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .execute();
  }

  functionalPlans(workspaceId: string): Promise<AssistantFunctionalPlanRow[]> {
    return this.db
      .selectFrom('functional_plans')
      .select(['id', 'name', 'kind', 'body', 'created_at'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /** The user's newest functional runs, newest first. */
  functionalRuns(workspaceId: string): Promise<AssistantFunctionalRunRow[]> {
    return this.db
      .selectFrom('functional_runs')
      .select(['id', 'plan_id', 'test_name', 'status', 'start_time', 'end_time', 'error', 'summary', 'head'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('start_time', 'desc')
      .orderBy('id', 'desc')
      .limit(ASSISTANT_RUNS_READ)
      .execute();
  }

  /** The ids of the user's plans (load and functional) that have at least one run. */
  async planIdsWithRuns(workspaceId: string): Promise<{ perf: Set<string>; functional: Set<string> }> {
    const [perf, functional] = await Promise.all([
      this.planIdsIn('runs', workspaceId),
      this.planIdsIn('functional_runs', workspaceId),
    ]);
    return { perf, functional };
  }

  /** The plans the user's runs in `table` name. */
  private async planIdsIn(table: 'runs' | 'functional_runs', workspaceId: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom(table)
      .select('plan_id')
      .distinct()
      .where('workspace_id', '=', workspaceId)
      .where('plan_id', 'is not', null)
      .execute();
    return new Set(rows.map((row) => row.plan_id).filter((id): id is string => id !== null));
  }

  /** Keeps a turn, numbered after the user's last, and drops their oldest beyond `cap`, in one transaction. */
  async addTurn(turn: Omit<NewAssistantTurnRow, 'seq'>, cap: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // Two questions at once must not take the same number (PostgreSQL runs transactions side by side).
      await lockUserForTransaction(trx, turn.user_id);
      const last = await trx
        .selectFrom('assistant_turns')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .where('user_id', '=', turn.user_id)
        .executeTakeFirst();
      const seq = Number(last?.seq ?? 0) + 1;
      await trx
        .insertInto('assistant_turns')
        .values({ ...turn, seq })
        .execute();
      await trx
        .deleteFrom('assistant_turns')
        .where('user_id', '=', turn.user_id)
        .where('seq', '<=', seq - cap)
        .execute();
    });
  }

  /** The user's turns in the workspace, oldest first (the newest last, as a conversation reads). */
  turns(userId: string, workspaceId: string): Promise<AssistantTurnRow[]> {
    return this.db
      .selectFrom('assistant_turns')
      .selectAll()
      .where('user_id', '=', userId)
      .where('workspace_id', '=', workspaceId)
      .orderBy('seq')
      .execute();
  }

  async clearTurns(userId: string, workspaceId: string): Promise<number> {
    const result = await this.db
      .deleteFrom('assistant_turns')
      .where('user_id', '=', userId)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
