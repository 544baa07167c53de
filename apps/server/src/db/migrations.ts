import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';
import { columnTypes, isPostgres } from './dialect';
import { planSearchText } from './search-text';

/*
 * Migrations live in code, not in a folder read at run time, so they are part of the bundle
 * (dist/main.mjs) and cannot go missing. Names sort in the order they must run; a migration,
 * once released, is never edited: add a new one.
 *
 * The same migrations build the PostgreSQL schema (docs/adr/0019-postgresql.md). Their column types go
 * through columnTypes(db) (db/dialect.ts), which gives SQLite exactly the words these migrations always
 * wrote, so a released migration's meaning on SQLite is unchanged; only its PostgreSQL rendering is new.
 */

const m0001_users_and_sessions: Migration = {
  // Migrations see an untyped database on purpose: they describe the schema at one moment in history.
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    await db.schema
      .createTable('users')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('email', t.text, (c) => c.notNull())
      .addColumn('email_normalized', t.text, (c) => c.notNull().unique())
      .addColumn('username', t.text, (c) => c.notNull())
      .addColumn('first_name', t.text, (c) => c.notNull())
      .addColumn('last_name', t.text, (c) => c.notNull())
      .addColumn('company', t.text, (c) => c.notNull().defaultTo(''))
      .addColumn('role', t.text, (c) => c.notNull().defaultTo(''))
      .addColumn('password_hash', t.text, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('updated_at', t.text, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', t.text, (c) => c.notNull().unique())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('expires_at', t.text, (c) => c.notNull())
      .addColumn('revoked_at', t.text)
      .addColumn('last_used_at', t.text, (c) => c.notNull())
      .execute();

    await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sessions').execute();
    await db.schema.dropTable('users').execute();
  },
};

const m0002_plans: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // The plan's load settings are columns (listed and sorted without parsing JSON); the URL entries,
    // which change shape with the model, are one JSON document in `body`, read through migratePlan().
    await db.schema
      .createTable('plans')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', t.text, (c) => c.notNull())
      .addColumn('description', t.text, (c) => c.notNull().defaultTo(''))
      .addColumn('tool', t.text, (c) => c.notNull())
      .addColumn('concurrent_users', t.integer, (c) => c.notNull())
      .addColumn('duration', t.integer, (c) => c.notNull())
      .addColumn('source_page', t.text, (c) => c.notNull())
      .addColumn('test_type', t.text, (c) => c.notNull())
      .addColumn('schema_version', t.integer, (c) => c.notNull())
      .addColumn('body', t.text, (c) => c.notNull())
      .addColumn('script', t.text, (c) => c.notNull().defaultTo(''))
      .addColumn('script_edited', t.integer, (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('updated_at', t.text, (c) => c.notNull())
      .execute();

    await db.schema
      .createIndex('plans_user_id_created_at_idx')
      .on('plans')
      .columns(['user_id', 'created_at desc'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('plans').execute();
  },
};

const m0003_runs: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // A run outlives its plan (plan_id set null on delete): its result, configuration as run and
    // plan_name stay readable. The figures dashboards sort and list by are columns; the rest of the
    // result is JSON, written once when the run ends.
    await db.schema
      .createTable('runs')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('plan_id', t.text, (c) => c.references('plans.id').onDelete('set null'))
      .addColumn('plan_name', t.text, (c) => c.notNull())
      .addColumn('status', t.text, (c) => c.notNull())
      .addColumn('tool', t.text, (c) => c.notNull())
      .addColumn('engine', t.text, (c) => c.notNull())
      .addColumn('engine_note', t.text, (c) => c.notNull().defaultTo(''))
      .addColumn('config', t.text, (c) => c.notNull())
      .addColumn('concurrent_users', t.integer, (c) => c.notNull())
      .addColumn('duration_seconds', t.real, (c) => c.notNull())
      .addColumn('started_at', t.text, (c) => c.notNull())
      .addColumn('ended_at', t.text)
      .addColumn('error', t.text)
      .addColumn('summary', t.text)
      .addColumn('api_results', t.text)
      .addColumn('errors', t.text)
      .addColumn('histogram', t.text)
      .addColumn('total_requests', t.integer)
      .addColumn('error_rate', t.real)
      .addColumn('requests_per_second', t.real)
      .addColumn('average_response_time', t.real)
      .addColumn('percentile_95', t.real)
      .execute();
    await db.schema
      .createIndex('runs_user_id_started_at_idx')
      .on('runs')
      .columns(['user_id', 'started_at desc'])
      .execute();
    await db.schema
      .createIndex('runs_plan_id_started_at_idx')
      .on('runs')
      .columns(['plan_id', 'started_at desc'])
      .execute();
    // Start-up recovery looks runs up by status.
    await db.schema.createIndex('runs_status_idx').on('runs').column('status').execute();

    // One row per second of a run: step_index -1 is the whole run, 0.. the plan's steps.
    await db.schema
      .createTable('run_points')
      .addColumn('run_id', t.text, (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('step_index', t.integer, (c) => c.notNull())
      .addColumn('second', t.integer, (c) => c.notNull())
      .addColumn('data', t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('run_points_pk', ['run_id', 'step_index', 'second'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('run_points').execute();
    await db.schema.dropTable('runs').execute();
  },
};

const m0004_results_history: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // A name the user gives a run (null: the plan's name) and their notes on it.
    await db.schema.alterTable('runs').addColumn('test_name', t.text).execute();
    await db.schema
      .alterTable('runs')
      .addColumn('notes', t.text, (c) => c.notNull().defaultTo(''))
      .execute();
    // SQLite cannot add a column with a foreign key through ALTER TABLE in a way that enforces it,
    // so clearing the baseline when its run is deleted is done by the delete itself, in its transaction.
    await db.schema.alterTable('plans').addColumn('baseline_run_id', t.text).execute();
    await db.schema.createIndex('plans_baseline_run_id_idx').on('plans').column('baseline_run_id').execute();
    // Dashboards count and list a user's runs by status, and a plan's runs by status (its trend).
    await db.schema
      .createIndex('runs_user_id_status_started_at_idx')
      .on('runs')
      .columns(['user_id', 'status', 'started_at'])
      .execute();
    await db.schema
      .createIndex('runs_plan_id_status_started_at_idx')
      .on('runs')
      .columns(['plan_id', 'status', 'started_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('runs_plan_id_status_started_at_idx').execute();
    await db.schema.dropIndex('runs_user_id_status_started_at_idx').execute();
    await db.schema.dropIndex('plans_baseline_run_id_idx').execute();
    await db.schema.alterTable('plans').dropColumn('baseline_run_id').execute();
    await db.schema.alterTable('runs').dropColumn('notes').execute();
    await db.schema.alterTable('runs').dropColumn('test_name').execute();
  },
};

const m0005_plan_search_text: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // The folded name and description that plan search matches (see db/search-text.ts); filled
    // here in JavaScript because SQLite's lower() folds ASCII letters only.
    await db.schema
      .alterTable('plans')
      .addColumn('search_text', t.text, (c) => c.notNull().defaultTo(''))
      .execute();
    const plans = db as unknown as Kysely<{
      plans: { id: string; name: string; description: string; search_text: string };
    }>;
    const rows = await plans.selectFrom('plans').select(['id', 'name', 'description']).execute();
    for (const row of rows) {
      await plans
        .updateTable('plans')
        .set({ search_text: planSearchText(row.name, row.description) })
        .where('id', '=', row.id)
        .execute();
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('plans').dropColumn('search_text').execute();
  },
};

const m0006_run_error_details: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // A run that failed in its tool keeps the tool's own output (last lines) beside the short error.
    await db.schema.alterTable('runs').addColumn('error_details', t.text).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('runs').dropColumn('error_details').execute();
  },
};

const m0007_run_processes: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // The tool processes of runs in progress (docs/adr/0016-crash-recovery.md): a row is written when a
    // tool starts and removed when its run ends, so the rows left at start-up are tools a killed server
    // could not stop. start_ticks recognises the process again, so a reused pid is never signalled.
    await db.schema
      .createTable('run_processes')
      .addColumn('run_id', t.text, (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('pid', t.integer, (c) => c.notNull())
      .addColumn('start_ticks', t.text)
      .addColumn('work_dir', t.text, (c) => c.notNull())
      .addColumn('started_at', t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('run_processes_pk', ['run_id', 'pid'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('run_processes').execute();
  },
};

const m0008_functional_tests: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // Functional plans (docs/reference/02-running.md §3): the columns the dashboard lists; the plan as
    // FunctionalPlanSchema reads it is one JSON document in `body`. `status` is the last run's.
    await db.schema
      .createTable('functional_plans')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', t.text, (c) => c.notNull())
      .addColumn('test_type', t.text, (c) => c.notNull())
      .addColumn('source', t.text, (c) => c.notNull())
      .addColumn('status', t.text, (c) => c.notNull())
      .addColumn('schema_version', t.integer, (c) => c.notNull())
      .addColumn('body', t.text, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('updated_at', t.text, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('functional_plans_user_id_created_at_idx')
      .on('functional_plans')
      .columns(['user_id', 'created_at desc'])
      .execute();

    // A functional run outlives its plan (plan_id set null on delete). The result's calls, per-API rows
    // and timeline are one JSON document written when the run ends; a live run is held in memory.
    // `head` is the same document with only the calls the list shows, so the list never reads a run's
    // thousands of calls.
    await db.schema
      .createTable('functional_runs')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('plan_id', t.text, (c) => c.references('functional_plans.id').onDelete('set null'))
      .addColumn('test_name', t.text, (c) => c.notNull())
      .addColumn('description', t.text, (c) => c.notNull().defaultTo(''))
      .addColumn('status', t.text, (c) => c.notNull())
      .addColumn('test_type', t.text, (c) => c.notNull())
      .addColumn('source', t.text, (c) => c.notNull())
      .addColumn('config', t.text, (c) => c.notNull())
      .addColumn('start_time', t.text, (c) => c.notNull())
      .addColumn('end_time', t.text)
      .addColumn('error', t.text)
      .addColumn('summary', t.text)
      .addColumn('result', t.text)
      .addColumn('head', t.text)
      .execute();
    await db.schema
      .createIndex('functional_runs_user_id_start_time_idx')
      .on('functional_runs')
      .columns(['user_id', 'start_time desc'])
      .execute();
    // As for load runs: deleting a plan sets its runs' plan_id null through this index, and start-up
    // recovery finds the runs left running through the status one.
    await db.schema
      .createIndex('functional_runs_plan_id_idx')
      .on('functional_runs')
      .column('plan_id')
      .execute();
    await db.schema
      .createIndex('functional_runs_status_idx')
      .on('functional_runs')
      .column('status')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('functional_runs').execute();
    await db.schema.dropTable('functional_plans').execute();
  },
};

const m0009_functional_screenshots: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // A UI run's screenshots (docs/design.md §9 "UI tests"): JPEG bytes kept with the run, served to its
    // owner only, and gone with it (ON DELETE CASCADE; foreign keys are on for every connection,
    // database.ts). `id` is random so that one run's screenshot id says nothing of another's; `seq`
    // keeps the order they were taken in.
    await db.schema
      .createTable('functional_screenshots')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('run_id', t.text, (c) => c.notNull().references('functional_runs.id').onDelete('cascade'))
      .addColumn('seq', t.integer, (c) => c.notNull())
      .addColumn('label', t.text, (c) => c.notNull())
      .addColumn('failure', t.integer, (c) => c.notNull())
      .addColumn('jpeg', t.blob, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addUniqueConstraint('functional_screenshots_run_id_seq_unique', ['run_id', 'seq'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('functional_screenshots').execute();
  },
};

const m0010_api_tokens: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // API tokens for CI (docs/adr/0012-api-tokens-and-sessions.md): like sessions, only the sha256 of
    // the token is kept. A revoked token's row stays a while so that it gets "revoked" rather than
    // "not valid"; the user's list shows only the live and expired ones.
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', t.text, (c) => c.notNull())
      .addColumn('token_hash', t.text, (c) => c.notNull().unique())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('expires_at', t.text)
      .addColumn('revoked_at', t.text)
      .addColumn('last_used_at', t.text)
      .execute();
    await db.schema.createIndex('api_tokens_user_id_idx').on('api_tokens').column('user_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('api_tokens').execute();
  },
};

const m0011_messages_and_feedback: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // A message per ended run (docs/reference/02-running.md §2 "Messages"). It names its run in the
    // column of the run's table, so it goes with the run (ON DELETE CASCADE) and, being unique there,
    // a run never gets two messages.
    await db.schema
      .createTable('messages')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', t.text, (c) => c.notNull())
      .addColumn('test_type', t.text, (c) => c.notNull())
      .addColumn('name', t.text, (c) => c.notNull())
      .addColumn('title', t.text, (c) => c.notNull())
      .addColumn('body', t.text, (c) => c.notNull())
      .addColumn('run_id', t.text, (c) => c.unique().references('runs.id').onDelete('cascade'))
      .addColumn('functional_run_id', t.text, (c) =>
        c.unique().references('functional_runs.id').onDelete('cascade'),
      )
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('read_at', t.text)
      // Messages of one instant are listed in the order they were written: by SQLite's implicit rowid,
      // which PostgreSQL lacks, so its rendering names a column so (message.repository.ts).
      .$call((table) =>
        isPostgres(db)
          ? table.addColumn('rowid', 'bigint', (c) => c.notNull().generatedAlwaysAsIdentity())
          : table,
      )
      .execute();
    await db.schema
      .createIndex('messages_user_id_created_at_idx')
      .on('messages')
      .columns(['user_id', 'created_at desc'])
      .execute();

    // What users send from the Feedback screen (docs/reference/02-running.md §2 "Feedback"). The run id
    // is kept as sent (checked to be the user's then); the feedback outlives the run.
    await db.schema
      .createTable('feedback')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', t.text, (c) => c.notNull())
      .addColumn('message', t.text, (c) => c.notNull())
      .addColumn('page', t.text)
      .addColumn('run_id', t.text)
      .addColumn('created_at', t.text, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('feedback_user_id_created_at_idx')
      .on('feedback')
      .columns(['user_id', 'created_at desc'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('feedback').execute();
    await db.schema.dropTable('messages').execute();
  },
};

const m0012_assistant_conversations: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // Ask James's conversation, kept per user (docs/design.md §10): one row per question with the
    // answer as given (JSON), so the panel shows it again as it was. Capped per user by the service.
    await db.schema
      .createTable('assistant_turns')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('seq', t.integer, (c) => c.notNull())
      .addColumn('question', t.text, (c) => c.notNull())
      .addColumn('answer', t.text, (c) => c.notNull())
      .addColumn('asked_at', t.text, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('assistant_turns_user_id_seq_idx')
      .on('assistant_turns')
      .columns(['user_id', 'seq'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('assistant_turns').execute();
  },
};

const m0013_server_instances: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // The server processes sharing this database (docs/adr/0020-server-replicas.md): each registers at
    // start-up and beats every few seconds, so a replica can tell a live owner of a run from a dead one.
    await db.schema
      .createTable('server_instances')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('host', t.text, (c) => c.notNull())
      .addColumn('pid', t.integer, (c) => c.notNull())
      .addColumn('started_at', t.text, (c) => c.notNull())
      .addColumn('last_seen_at', t.text, (c) => c.notNull())
      .execute();
    // Which server runs each run; null for the runs of servers before this migration.
    await db.schema.alterTable('runs').addColumn('server_id', t.text).execute();
    await db.schema.alterTable('functional_runs').addColumn('server_id', t.text).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('functional_runs').dropColumn('server_id').execute();
    await db.schema.alterTable('runs').dropColumn('server_id').execute();
    await db.schema.dropTable('server_instances').execute();
  },
};

const m0014_run_agents: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // The load agents a run was split over (docs/adr/0021-load-agents.md): JSON of RunAgent[], each
    // with its users, status, requests and why it was lost; null for a run on the server.
    await db.schema.alterTable('runs').addColumn('agents', t.text).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('runs').dropColumn('agents').execute();
  },
};

const m0021_run_abort: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // Why an abort threshold stopped a load run, and its breaking point (docs/adr/0027-load-profiles.md,
    // "Abort criteria"): JSON of { aborted, breaking_point? }; null for a run no threshold stopped.
    await db.schema.alterTable('runs').addColumn('abort', t.text).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('runs').dropColumn('abort').execute();
  },
};

const m0023_schedules: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // Schedules (docs/adr/0031-schedules.md). `next_run_at` is the time the schedule next comes round,
    // ISO UTC: the replica whose conditional update moves it on is the one that fires (its "Firing"), so
    // a time is fired once however many replicas look. The plan is named by id and kind only: deleting a
    // plan deletes its schedules (the schedule service does it, the plans being in two tables).
    await db.schema
      .createTable('schedules')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('plan_id', t.text, (c) => c.notNull())
      .addColumn('plan_kind', t.text, (c) => c.notNull())
      .addColumn('cron', t.text, (c) => c.notNull())
      .addColumn('timezone', t.text, (c) => c.notNull())
      .addColumn('enabled', t.integer, (c) => c.notNull())
      .addColumn('next_run_at', t.text)
      .addColumn('last_run_at', t.text)
      .addColumn('last_outcome', t.text)
      .addColumn('last_run_id', t.text)
      .addColumn('last_reason', t.text)
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('updated_at', t.text, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('schedules_user_id_idx').on('schedules').column('user_id').execute();
    await db.schema.createIndex('schedules_next_run_at_idx').on('schedules').column('next_run_at').execute();
    await db.schema.createIndex('schedules_plan_id_idx').on('schedules').column('plan_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('schedules').execute();
  },
};

const m0025_sso_logins: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // Single sign-on (docs/adr/0033-single-sign-on.md): a sign-in under way at the provider, found by the
    // sha256 of its `state`, taken once by the callback. In the database, not in one server's memory, so
    // the callback may reach another replica.
    await db.schema
      .createTable('sso_logins')
      .addColumn('state_hash', t.text, (c) => c.primaryKey())
      .addColumn('code_verifier', t.text, (c) => c.notNull())
      .addColumn('nonce', t.text, (c) => c.notNull())
      .addColumn('return_to', t.text, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sso_logins').execute();
  },
};

const m0026_audit_log: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // The audit log (docs/adr/0034-audit-log.md): one row per call that created, changed, ran, stopped or
    // deleted something. `owner_id` is whose log it is (the account's own until workspaces own things);
    // the actor's address is kept as it was, so the row still reads once the account is gone.
    await db.schema
      .createTable('audit_log')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('owner_id', t.text, (c) => c.notNull())
      .addColumn('actor_id', t.text, (c) => c.notNull())
      .addColumn('actor_email', t.text, (c) => c.notNull())
      .addColumn('via', t.text, (c) => c.notNull())
      .addColumn('action', t.text, (c) => c.notNull())
      .addColumn('object', t.text, (c) => c.notNull())
      .addColumn('object_id', t.text)
      .addColumn('object_name', t.text)
      .addColumn('route', t.text, (c) => c.notNull())
      .addColumn('ip', t.text, (c) => c.notNull())
      .addColumn('at', t.text, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('audit_log_owner_at_idx')
      .on('audit_log')
      .columns(['owner_id', 'at desc'])
      .execute();
    await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('audit_log').execute();
  },
};

const m0027_schedule_channels: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // The notification channels a schedule's runs are told to (docs/adr/0031-schedules.md), JSON of ids.
    await db.schema
      .alterTable('schedules')
      .addColumn('channel_ids', t.text, (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('schedules').dropColumn('channel_ids').execute();
  },
};

const m0015_token_scopes: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // What an API token may do (docs/adr/0023-agents-over-http.md): 'api' the API as its user (every
    // token made before this migration), 'agent' only the load-agent routes.
    await db.schema
      .alterTable('api_tokens')
      .addColumn('scope', t.text, (c) => c.notNull().defaultTo('api'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('api_tokens').dropColumn('scope').execute();
  },
};

type EmailKeyRow = {
  id: string;
  email: string;
  email_normalized: string;
  username: string;
  created_at: string;
};

/**
 * Moves each account's email key from one rule to another (0017), oldest account first. A row takes its
 * new key unless another account holds it already; such a row keeps its old key (the server names it at
 * start-up, services/account-email-check.ts).
 */
async function rekeyEmails(db: Kysely<unknown>, keyOf: (email: string) => string): Promise<void> {
  const users = db as unknown as Kysely<{ users: EmailKeyRow }>;
  const rows = await users
    .selectFrom('users')
    .select(['id', 'email', 'email_normalized', 'username', 'created_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const taken = new Set(rows.map((row) => row.email_normalized));
  for (const row of rows) {
    const key = keyOf(row.email);
    if (key === row.email_normalized || taken.has(key)) continue;
    await users
      .updateTable('users')
      .set({ email_normalized: key, username: key })
      .where('id', '=', row.id)
      .execute();
    taken.delete(row.email_normalized);
    taken.add(key);
  }
}

const m0017_email_nfkc: Migration = {
  // Sign-up, sign-in and the lock-out key an email by Unicode NFKC and lower case from now on, so that
  // a full-width or ligature spelling is the account it looks like (docs/adr/0018-safe-defaults-and-lockout.md);
  // before, it was lowered only. The rule is written out here, not imported, so this migration keeps its
  // meaning whatever the rule becomes.
  up: (db: Kysely<unknown>) =>
    rekeyEmails(db, (email) => email.normalize('NFKC').trim().toLowerCase().normalize('NFKC')),
  down: (db: Kysely<unknown>) => rekeyEmails(db, (email) => email.trim().toLowerCase()),
};

const m0016_functional_run_calls: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // The calls and steps a functional or UI run has judged, written as it goes (docs/adr/0016-crash-recovery.md):
    // one row per write, `seq` 1, 2, … per run, `calls` the JSON of what was judged since the last one
    // (each call with its place in the run's tally). A run that ends writes its result on its row and
    // removes these in the same transaction, so the rows left at start-up are the runs a dead server
    // left running, which are rebuilt from them.
    await db.schema
      .createTable('functional_run_calls')
      .addColumn('run_id', t.text, (c) => c.notNull().references('functional_runs.id').onDelete('cascade'))
      .addColumn('seq', t.integer, (c) => c.notNull())
      .addColumn('calls', t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('functional_run_calls_pk', ['run_id', 'seq'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('functional_run_calls').execute();
  },
};

const m0018_plan_versions: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // Optimistic concurrency (docs/reference/01-authoring.md §7 "Plan versions"): each update of a plan
    // moves its version on by one, and an update made from an older version is refused, so two tabs
    // saving the same plan cannot silently overwrite each other. Plans saved before start at 1.
    for (const table of ['plans', 'functional_plans']) {
      await db.schema
        .alterTable(table)
        .addColumn('version', t.integer, (c) => c.notNull().defaultTo(1))
        .execute();
    }
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['plans', 'functional_plans']) {
      await db.schema.alterTable(table).dropColumn('version').execute();
    }
  },
};

const m0019_phrases: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // The sentences screens word in the user's language, beside their English (docs/adr/0025-phrases.md):
    // JSON of a phrase ({ code, params }) for a run's error, of the phrases of a message's body. Rows
    // written before keep null, and screens show their English text.
    await db.schema.alterTable('runs').addColumn('error_phrase', t.text).execute();
    await db.schema.alterTable('functional_runs').addColumn('error_phrase', t.text).execute();
    await db.schema.alterTable('messages').addColumn('body_phrases', t.text).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('messages').dropColumn('body_phrases').execute();
    await db.schema.alterTable('functional_runs').dropColumn('error_phrase').execute();
    await db.schema.alterTable('runs').dropColumn('error_phrase').execute();
  },
};

type KindColumns = {
  id: string;
  source: string;
  test_type: string;
  body: string;
  config: string;
  kind: string;
};

/** The framework a stored plan document names, if it reads. */
function frameworkNamed(doc: string): unknown {
  try {
    return (JSON.parse(doc) as { test_framework?: unknown } | null)?.test_framework;
  } catch {
    return undefined;
  }
}

/**
 * Gives each functional row the kind of the plan it keeps (`body` of a plan, `config` of a run). The
 * rule is written out here, not imported (as 0017's is), so this migration keeps its meaning whatever
 * kindOf() becomes: a script source is `script`; a UI source, type or framework `ui`; anything else
 * stays `api`.
 */
async function fillFunctionalKinds(db: Kysely<unknown>, table: string, doc: 'body' | 'config') {
  const rows = db as unknown as Kysely<Record<string, KindColumns>>;
  await rows.updateTable(table).set({ kind: 'script' }).where('source', '=', 'script_input').execute();
  await rows
    .updateTable(table)
    .set({ kind: 'ui' })
    .where('source', '<>', 'script_input')
    .where((eb) => eb.or([eb('source', '=', 'ui_url_input'), eb('test_type', '=', 'ui')]))
    .execute();
  // A URL plan that named the selenium framework ran in a browser; only its JSON says so.
  const named = await rows
    .selectFrom(table)
    .select(['id', doc])
    .where('kind', '=', 'api')
    .where(doc, 'like', '%selenium%')
    .execute();
  for (const row of named) {
    if (frameworkNamed(row[doc]) !== 'selenium') continue;
    await rows.updateTable(table).set({ kind: 'ui' }).where('id', '=', row.id).execute();
  }
}

const m0020_test_kinds: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // The kind of every plan and run (docs/test-kinds.md): load for the load tables, api, script or ui
    // for the functional ones, which the rows before this migration get from what they stored.
    for (const table of ['plans', 'runs']) {
      await db.schema
        .alterTable(table)
        .addColumn('kind', t.text, (c) => c.notNull().defaultTo('load'))
        .execute();
    }
    for (const [table, doc] of [
      ['functional_plans', 'body'],
      ['functional_runs', 'config'],
    ] as const) {
      await db.schema
        .alterTable(table)
        .addColumn('kind', t.text, (c) => c.notNull().defaultTo('api'))
        .execute();
      await fillFunctionalKinds(db, table, doc);
    }
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['functional_runs', 'functional_plans', 'runs', 'plans']) {
      await db.schema.alterTable(table).dropColumn('kind').execute();
    }
  },
};

const m0024_notification_channels: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // Notifications out (docs/adr/0032-notifications-out.md): where a user's runs are told (a webhook,
    // Slack, Teams or e-mail address), for which events (JSON list), and the secret a webhook's body is
    // signed with (kept whole: it signs every delivery; answered only as its last characters).
    await db.schema
      .createTable('notification_channels')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('type', t.text, (c) => c.notNull())
      .addColumn('name', t.text, (c) => c.notNull())
      .addColumn('url', t.text, (c) => c.notNull())
      .addColumn('secret', t.text)
      .addColumn('events', t.text, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('notification_channels_user_idx')
      .on('notification_channels')
      .column('user_id')
      .execute();
    // The channels a plan's runs are told on: a load plan (`plans`, kind 'load') or an API, script or UI
    // plan (`functional_plans`, kind 'functional'); no foreign key to the plan, since it is one of two tables.
    await db.schema
      .createTable('notification_plan_channels')
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('plan_kind', t.text, (c) => c.notNull())
      .addColumn('plan_id', t.text, (c) => c.notNull())
      .addColumn('channel_id', t.text, (c) =>
        c.notNull().references('notification_channels.id').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint('notification_plan_channels_pk', ['plan_kind', 'plan_id', 'channel_id'])
      .execute();
    await db.schema
      .createIndex('notification_plan_channels_channel_idx')
      .on('notification_plan_channels')
      .column('channel_id')
      .execute();
    // The outbox and its log: one row per notice to send, written before its first attempt with the
    // exact body sent (so a restart resumes it and signs the same bytes), and one row per attempt with
    // the receiver's answer. Status: pending | retrying (to be attempted at next_attempt_at) | sent | failed.
    await db.schema
      .createTable('notification_deliveries')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('channel_id', t.text, (c) =>
        c.notNull().references('notification_channels.id').onDelete('cascade'),
      )
      .addColumn('run_id', t.text)
      .addColumn('event', t.text, (c) => c.notNull())
      .addColumn('body', t.text, (c) => c.notNull())
      .addColumn('status', t.text, (c) => c.notNull())
      .addColumn('attempts', t.integer, (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', t.text)
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('updated_at', t.text, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('notification_deliveries_channel_idx')
      .on('notification_deliveries')
      .columns(['channel_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('notification_deliveries_status_idx')
      .on('notification_deliveries')
      .column('status')
      .execute();
    await db.schema
      .createTable('notification_attempts')
      .addColumn('delivery_id', t.text, (c) =>
        c.notNull().references('notification_deliveries.id').onDelete('cascade'),
      )
      .addColumn('attempt', t.integer, (c) => c.notNull())
      .addColumn('status', t.text, (c) => c.notNull())
      .addColumn('http_status', t.integer)
      .addColumn('answer', t.text, (c) => c.notNull())
      .addColumn('started_at', t.text, (c) => c.notNull())
      .addColumn('ended_at', t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_attempts_pk', ['delivery_id', 'attempt'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('notification_attempts').execute();
    await db.schema.dropTable('notification_deliveries').execute();
    await db.schema.dropTable('notification_plan_channels').execute();
    await db.schema.dropTable('notification_channels').execute();
  },
};

/** The tables whose rows belong to a workspace (docs/adr/0035-workspaces-and-roles.md). */
const WORKSPACE_OWNED_TABLES = [
  'plans',
  'runs',
  'functional_plans',
  'functional_runs',
  'messages',
  'assistant_turns',
  'schedules',
  'notification_channels',
  'notification_plan_channels',
  'notification_deliveries',
] as const;

const m0028_workspaces: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // Team workspaces and their members (docs/adr/0035-workspaces-and-roles.md). A user's personal
    // workspace is not a row: its id is the user's id and its one member, the owner, is the user.
    await db.schema
      .createTable('workspaces')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('name', t.text, (c) => c.notNull())
      .addColumn('timezone', t.text, (c) => c.notNull().defaultTo('UTC'))
      .addColumn('created_by', t.text, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('updated_at', t.text, (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('workspace_members')
      .addColumn('workspace_id', t.text, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role', t.text, (c) => c.notNull())
      .addColumn('added_by', t.text, (c) => c.notNull())
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('workspace_members_pk', ['workspace_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('workspace_members_user_idx')
      .on('workspace_members')
      .column('user_id')
      .execute();
    // Every owned row names its workspace; today's rows go to their user's personal workspace, whose id
    // is the user's id, so the move is a copy of user_id. user_id stays: who made the row.
    for (const table of WORKSPACE_OWNED_TABLES) {
      await db.schema
        .alterTable(table)
        .addColumn('workspace_id', t.text, (c) => c.notNull().defaultTo(''))
        .execute();
      await sql`update ${sql.table(table)} set workspace_id = user_id`.execute(db);
      await db.schema.createIndex(`${table}_workspace_idx`).on(table).column('workspace_id').execute();
    }
    // A message is read by each member on their own (message.repository.ts): who read which, and when.
    await db.schema
      .createTable('message_reads')
      .addColumn('message_id', t.text, (c) => c.notNull().references('messages.id').onDelete('cascade'))
      .addColumn('user_id', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('read_at', t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('message_reads_pk', ['message_id', 'user_id'])
      .execute();
    await sql`insert into message_reads (message_id, user_id, read_at)
      select id, user_id, read_at from messages where read_at is not null`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('message_reads').execute();
    for (const table of WORKSPACE_OWNED_TABLES) {
      await db.schema.dropIndex(`${table}_workspace_idx`).execute();
      await db.schema.alterTable(table).dropColumn('workspace_id').execute();
    }
    await db.schema.dropTable('workspace_members').execute();
    await db.schema.dropTable('workspaces').execute();
  },
};

const m0029_workspace_invites: Migration = {
  async up(db: Kysely<unknown>) {
    const t = columnTypes(db);
    // Invite links to a team workspace (docs/adr/0035-workspaces-and-roles.md): the token stored hashed
    // like a session's, used once, gone with its workspace.
    await db.schema
      .createTable('workspace_invites')
      .addColumn('id', t.text, (c) => c.primaryKey())
      .addColumn('token_hash', t.text, (c) => c.notNull().unique())
      .addColumn('workspace_id', t.text, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('role', t.text, (c) => c.notNull())
      .addColumn('created_by', t.text, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', t.text, (c) => c.notNull())
      .addColumn('expires_at', t.text, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('workspace_invites_workspace_idx')
      .on('workspace_invites')
      .column('workspace_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('workspace_invites').execute();
  },
};

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_users_and_sessions': m0001_users_and_sessions,
  '0002_plans': m0002_plans,
  '0003_runs': m0003_runs,
  '0004_results_history': m0004_results_history,
  '0005_plan_search_text': m0005_plan_search_text,
  '0006_run_error_details': m0006_run_error_details,
  '0007_run_processes': m0007_run_processes,
  '0008_functional_tests': m0008_functional_tests,
  '0009_functional_screenshots': m0009_functional_screenshots,
  '0010_api_tokens': m0010_api_tokens,
  '0011_messages_and_feedback': m0011_messages_and_feedback,
  '0012_assistant_conversations': m0012_assistant_conversations,
  '0013_server_instances': m0013_server_instances,
  '0014_run_agents': m0014_run_agents,
  '0015_token_scopes': m0015_token_scopes,
  '0016_functional_run_calls': m0016_functional_run_calls,
  '0017_email_nfkc': m0017_email_nfkc,
  '0018_plan_versions': m0018_plan_versions,
  '0019_phrases': m0019_phrases,
  '0020_test_kinds': m0020_test_kinds,
  '0021_run_abort': m0021_run_abort,
  '0023_schedules': m0023_schedules,
  '0024_notification_channels': m0024_notification_channels,
  '0025_sso_logins': m0025_sso_logins,
  '0026_audit_log': m0026_audit_log,
  '0027_schedule_channels': m0027_schedule_channels,
  '0028_workspaces': m0028_workspaces,
  '0029_workspace_invites': m0029_workspace_invites,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
};
