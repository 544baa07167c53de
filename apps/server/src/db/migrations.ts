import type { Kysely, Migration, MigrationProvider } from 'kysely';

/*
 * Migrations live in code, not in a folder read at run time, so they are part of the bundle
 * (dist/main.mjs) and cannot go missing. Names sort in the order they must run; a migration,
 * once released, is never edited: add a new one.
 */

const m0001_users_and_sessions: Migration = {
  // Migrations see an untyped database on purpose: they describe the schema at one moment in history.
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_normalized', 'text', (c) => c.notNull().unique())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('first_name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .addColumn('company', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('role', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('last_used_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sessions').execute();
    await db.schema.dropTable('users').execute();
  },
};

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_users_and_sessions': m0001_users_and_sessions,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
};
