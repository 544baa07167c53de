import type { Insertable, Selectable, Updateable } from 'kysely';

/**
 * The tables as Kysely sees them. Times are ISO-8601 UTC strings (`Date#toISOString`), which sort
 * and compare correctly as text in SQLite and convert cleanly to timestamptz in PostgreSQL.
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  plans: PlansTable;
}

export interface UsersTable {
  id: string;
  /** The address as the user typed it (trimmed). */
  email: string;
  /** Lowercased email; unique, so two accounts cannot differ only by case. */
  email_normalized: string;
  /** Always equal to email_normalized: the spec signs in with "username", which is the email. */
  username: string;
  first_name: string;
  last_name: string;
  company: string;
  role: string;
  /** argon2id PHC string. Never leaves the repositories. */
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** sha256 hex of the bearer token; the token itself is never stored. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string;
}

export interface PlansTable {
  id: string;
  user_id: string;
  name: string;
  description: string;
  tool: string;
  concurrent_users: number;
  /** Minutes. */
  duration: number;
  source_page: string;
  test_type: string;
  /** The PLAN_SCHEMA_VERSION that `body` was written with; migratePlan() reads older ones. */
  schema_version: number;
  /** JSON text of the rest of the plan model: `{ "urls": [...] }`. */
  body: string;
  script: string;
  /** 1 when the stored script differs from what the generator makes of the plan (edited by hand). */
  script_edited: number;
  created_at: string;
  updated_at: string;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NewSessionRow = Insertable<SessionsTable>;
export type PlanRow = Selectable<PlansTable>;
export type NewPlanRow = Insertable<PlansTable>;
export type PlanUpdate = Updateable<PlansTable>;
