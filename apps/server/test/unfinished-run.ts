import { join } from 'node:path';
import Database from 'libsql';

/**
 * Writes into a stopped server's SQLite file a load run still marked running, as a process that
 * crashed or was killed mid-run leaves it, so that the next start finds it unfinished
 * (docs/reference/02-running.md §4). The run belongs to the plan's owner: 4 users for 60 s in k6,
 * started now, nothing measured.
 */
export function insertUnfinishedRun(
  dataDir: string,
  run: { id: string; planId: string; planName: string },
): void {
  const sqlite = new Database(join(dataDir, 'anybodyqa.db'));
  try {
    const { user_id } = sqlite.prepare('select user_id from plans where id = ?').get(run.planId) as {
      user_id: string;
    };
    sqlite
      .prepare(
        `insert into runs (id, user_id, plan_id, plan_name, status, tool, engine, engine_note, config,
           concurrent_users, duration_seconds, started_at)
         values (?, ?, ?, ?, 'running', 'k6', 'builtin', '', ?, 4, 60, ?)`,
      )
      .run(
        run.id,
        user_id,
        run.planId,
        run.planName,
        JSON.stringify({ plan: {}, duration_seconds: 60, steps: [] }),
        new Date().toISOString(),
      );
  } finally {
    sqlite.close();
  }
}
