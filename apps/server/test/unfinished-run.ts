import type { DatabaseConfig } from '../src/config';
import { withTestSql } from './test-database';

/**
 * Writes into a stopped server's store (TestServer#database: SQLite or PostgreSQL) a load run still
 * marked running, as a process that crashed or was killed mid-run leaves it, so that the next start
 * finds it unfinished (docs/reference/02-running.md §4). The run belongs to the plan's owner: 4 users
 * for 60 s in k6, started now, nothing measured.
 */
export async function insertUnfinishedRun(
  database: DatabaseConfig,
  run: { id: string; planId: string; planName: string },
): Promise<void> {
  await withTestSql(database, async (sql) => {
    const plan = await sql.get<{ user_id: string; workspace_id: string }>(
      'select user_id, workspace_id from plans where id = ?',
      run.planId,
    );
    if (plan === undefined) throw new Error(`no plan ${run.planId} to start an unfinished run of`);
    await sql.run(
      `insert into runs (id, user_id, workspace_id, plan_id, plan_name, status, tool, engine, engine_note,
         config, concurrent_users, duration_seconds, started_at)
       values (?, ?, ?, ?, ?, 'running', 'k6', 'builtin', '', ?, 4, 60, ?)`,
      run.id,
      plan.user_id,
      plan.workspace_id,
      run.planId,
      run.planName,
      JSON.stringify({ plan: {}, duration_seconds: 60, steps: [] }),
      new Date().toISOString(),
    );
  });
}
