import type { TestKind } from '@aqa/plan';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The tables as Kysely sees them. Times are ISO-8601 UTC strings (`Date#toISOString`), which sort
 * and compare correctly as text in SQLite and convert cleanly to timestamptz in PostgreSQL.
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  plans: PlansTable;
  runs: RunsTable;
  run_points: RunPointsTable;
  run_processes: RunProcessesTable;
  functional_plans: FunctionalPlansTable;
  functional_runs: FunctionalRunsTable;
  functional_screenshots: FunctionalScreenshotsTable;
  functional_run_calls: FunctionalRunCallsTable;
  api_tokens: ApiTokensTable;
  messages: MessagesTable;
  feedback: FeedbackTable;
  assistant_turns: AssistantTurnsTable;
  server_instances: ServerInstancesTable;
  sso_logins: SsoLoginsTable;
  audit_log: AuditLogTable;
  schedules: SchedulesTable;
  notification_channels: NotificationChannelsTable;
  notification_plan_channels: NotificationPlanChannelsTable;
  notification_deliveries: NotificationDeliveriesTable;
  notification_attempts: NotificationAttemptsTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  message_reads: MessageReadsTable;
  workspace_invites: WorkspaceInvitesTable;
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
  /** The workspace the row belongs to (docs/adr/0035-workspaces-and-roles.md); a personal one's id is its user's. */
  workspace_id: string;
  name: string;
  description: string;
  tool: string;
  concurrent_users: number;
  /** Minutes. */
  duration: number;
  source_page: string;
  /** Free text the user gives (load, stress, soak…); not the test's kind. */
  test_type: string;
  /** Always `load` (docs/test-kinds.md); the column's default, for rows written before migration 0020 too. */
  kind: ColumnType<'load', 'load' | undefined, never>;
  /** The PLAN_SCHEMA_VERSION that `body` was written with; migratePlan() reads older ones. */
  schema_version: number;
  /** JSON text of the rest of the plan model: `{ "urls": [...] }`. */
  body: string;
  script: string;
  /** 1 when the stored script differs from what the generator makes of the plan (edited by hand). */
  script_edited: number;
  /** The run the plan's comparisons start from; cleared when that run is deleted. */
  baseline_run_id: string | null;
  /** Name and description folded for case-insensitive search (db/search-text.ts). */
  search_text: Generated<string>;
  /** Moves on by one with every update; an update made from an older one is refused (migration 0018). */
  version: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface RunsTable {
  /** "run_" + random, the spec's test_id. */
  id: string;
  user_id: string;
  /** The workspace the row belongs to (docs/adr/0035-workspaces-and-roles.md); a personal one's id is its user's. */
  workspace_id: string;
  /** Null once the plan is deleted; the run keeps plan_name and its configuration. */
  plan_id: string | null;
  plan_name: string;
  /** running | processing | completed | failed | stopped | interrupted */
  status: string;
  /** The plan's tool (the script format the user chose). */
  tool: string;
  /** Always `load` (docs/test-kinds.md); the column's default, for rows written before migration 0020 too. */
  kind: ColumnType<'load', 'load' | undefined, never>;
  /** What really ran the load: builtin, jmeter, k6, locust, taurus. */
  engine: string;
  /** Why this engine ran it, in words ("ran with the built-in engine: k6 is not installed on this server"). */
  engine_note: string;
  /** JSON: the plan and load settings exactly as run. */
  config: string;
  concurrent_users: number;
  duration_seconds: number;
  started_at: string;
  ended_at: string | null;
  /** Why the run failed or ended early, in words. */
  error: string | null;
  /** A run that failed in its tool: the tool's own output (last lines); null otherwise or before 0006. */
  error_details: string | null;
  /** JSON of `error` as a phrase (docs/adr/0025-phrases.md); null when it has none or before 0019. */
  error_phrase: string | null;
  /** JSON of the final summary (docs/reference/02-running.md §3 "Live test results"). */
  summary: string | null;
  /** JSON of the per-API rows. */
  api_results: string | null;
  /** JSON of the errors by kind with sample messages. */
  errors: string | null;
  /** JSON of the run's merged HDR histogram (the engine's sparse EncodedHistogram, µs). */
  histogram: string | null;
  total_requests: number | null;
  error_rate: number | null;
  requests_per_second: number | null;
  average_response_time: number | null;
  percentile_95: number | null;
  /** The name the user gave the run; null: it is called by its plan's name. */
  test_name: string | null;
  /** The user's notes on the run, '' when none. */
  notes: Generated<string>;
  /** The server process running it (server_instances.id); null for runs before migration 0013. */
  server_id: string | null;
  /** JSON of the load agents the run was split over (RunAgent[]); null for a run on the server. */
  agents: string | null;
  /**
   * JSON of the abort threshold that stopped the run and its breaking point ({ aborted, breaking_point }:
   * docs/adr/0027-load-profiles.md, "Abort criteria"); null when none stopped it, or before 0021.
   */
  abort: string | null;
}

export interface RunPointsTable {
  run_id: string;
  /** -1 for the whole run, else the index of the step in the plan's urls. */
  step_index: number;
  /** 1-based second of the run. */
  second: number;
  /** JSON of the second's figures, with its latency histogram (from which an interrupted run is rebuilt). */
  data: string;
}

/** A tool process of a run in progress (docs/adr/0016-crash-recovery.md); removed when the run ends. */
export interface RunProcessesTable {
  run_id: string;
  /** Also the id of its process group. */
  pid: number;
  /** Its start time in clock ticks since boot (/proc/<pid>/stat); null where there is no /proc. */
  start_ticks: string | null;
  /** The run's temporary folder, the tool's working directory. */
  work_dir: string;
  started_at: string;
}

/** A saved functional test plan (docs/reference/02-running.md §3). */
export interface FunctionalPlansTable {
  id: string;
  user_id: string;
  /** The workspace the row belongs to (docs/adr/0035-workspaces-and-roles.md); a personal one's id is its user's. */
  workspace_id: string;
  /** The plan's test_name. */
  name: string;
  /** functional | api | ui */
  test_type: string;
  /** url_input | script_input | ui_url_input */
  source: string;
  /** api | script | ui (docs/test-kinds.md): kindOf() of the plan, written with it. */
  kind: TestKind;
  /** The last run's status; "saved" before the first run. */
  status: string;
  /** The FUNCTIONAL_PLAN_SCHEMA_VERSION that `body` was written with. */
  schema_version: number;
  /** JSON text of the plan as FunctionalPlanSchema read it, without id, status, owner and times. */
  body: string;
  /** Moves on by one with every update; an update made from an older one is refused (migration 0018). */
  version: Generated<number>;
  created_at: string;
  updated_at: string;
}

/**
 * A functional run (docs/reference/02-running.md §3 "Functional result"), stored when it ends; what it
 * judged meanwhile is in functional_run_calls.
 */
export interface FunctionalRunsTable {
  /** FUNCTIONAL_TEST_ID_PREFIX ("fc_") + random, the spec's test_id. */
  id: string;
  user_id: string;
  /** The workspace the row belongs to (docs/adr/0035-workspaces-and-roles.md); a personal one's id is its user's. */
  workspace_id: string;
  /** The saved plan it ran; null when run unsaved or once the plan is deleted. */
  plan_id: string | null;
  test_name: string;
  description: string;
  /** running | completed | failed | stopped | interrupted */
  status: string;
  test_type: string;
  source: string;
  /** api | script | ui (docs/test-kinds.md): kindOf() of the plan it ran. */
  kind: TestKind;
  /** JSON: the plan exactly as run. */
  config: string;
  start_time: string;
  end_time: string | null;
  /** Why the run could not run or ended early, in words. */
  error: string | null;
  /** JSON of `error` as a phrase (docs/adr/0025-phrases.md); null when it has none or before 0019. */
  error_phrase: string | null;
  /** JSON of the FunctionalSummary; null while running. */
  summary: string | null;
  /** JSON of validation_results, calls_omitted, api_results and timeline_data; null while running. */
  result: string | null;
  /** `result` with only the calls the list shows (calls_omitted counting the rest); null while running. */
  head: string | null;
  /** The server process running it (server_instances.id); null for runs before migration 0013. */
  server_id: string | null;
}

/** A UI run's screenshot (docs/design.md §9 "UI tests"); deleted with its run. */
export interface FunctionalScreenshotsTable {
  /** Random; the {shotId} of GET /api/functional/screenshot/{testId}/{shotId}. */
  id: string;
  run_id: string;
  /** 1, 2, … in the order the run took them. */
  seq: number;
  /** "Step", "Failure", or the screenshot action's file name. */
  label: string;
  /** 1 for a screenshot taken because the step failed. */
  failure: number;
  /** Written as a Buffer; libsql reads a blob back as an ArrayBuffer, node-postgres a bytea as a Buffer. */
  jpeg: ColumnType<ArrayBuffer | Buffer, Buffer, never>;
  created_at: string;
}

/**
 * What a running functional or UI run has judged so far, one row per write (docs/adr/0016-crash-recovery.md);
 * removed when the run ends, and read to rebuild a run its server died during.
 */
export interface FunctionalRunCallsTable {
  run_id: string;
  /** 1, 2, … per run, in the order written. */
  seq: number;
  /** JSON of StoredCall[] (services/functional/functional-checkpoint.ts). */
  calls: string;
}

/** An API token for CI (docs/adr/0012-api-tokens-and-sessions.md); stored hashed like a session. */
export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  /** sha256 hex of the bearer token ("aqa_…"); the token itself is never stored. */
  token_hash: string;
  created_at: string;
  /** Null: never expires. */
  expires_at: string | null;
  revoked_at: string | null;
  /** Null until first used; refreshed at most once a minute. */
  last_used_at: string | null;
  /** ApiTokenScope: 'api' (the API as its user) or 'agent' (the load-agent routes only); 'api' by default. */
  scope: ColumnType<string, string | undefined, string>;
}

/** A message about one of the user's runs (docs/reference/02-running.md §2 "Messages"). */
export interface MessagesTable {
  id: string;
  user_id: string;
  /** The workspace the row belongs to (docs/adr/0035-workspaces-and-roles.md); a personal one's id is its user's. */
  workspace_id: string;
  /** completed | failed | stopped | interrupted | threshold_failed */
  kind: string;
  /** load | api | ui */
  test_type: string;
  name: string;
  title: string;
  body: string;
  /** JSON of the body's phrases (docs/adr/0025-phrases.md); null before 0019. */
  body_phrases: string | null;
  /** The load run it is about (else null); unique, and deleted with the run. */
  run_id: string | null;
  /** The functional or UI run it is about (else null); unique, and deleted with the run. */
  functional_run_id: string | null;
  created_at: string;
  read_at: string | null;
}

/** Feedback a user sent (docs/reference/02-running.md §2 "Feedback"). */
export interface FeedbackTable {
  id: string;
  user_id: string;
  /** bug | idea | question */
  kind: string;
  message: string;
  page: string | null;
  run_id: string | null;
  created_at: string;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NewSessionRow = Insertable<SessionsTable>;
export type PlanRow = Selectable<PlansTable>;
export type NewPlanRow = Insertable<PlansTable>;
export type PlanUpdate = Updateable<PlansTable>;
export type RunRow = Selectable<RunsTable>;
export type NewRunRow = Insertable<RunsTable>;
export type RunUpdate = Updateable<RunsTable>;
export type RunPointRow = Selectable<RunPointsTable>;
export type NewRunPointRow = Insertable<RunPointsTable>;
export type RunProcessRow = Selectable<RunProcessesTable>;
export type NewRunProcessRow = Insertable<RunProcessesTable>;
export type FunctionalPlanRow = Selectable<FunctionalPlansTable>;
export type NewFunctionalPlanRow = Insertable<FunctionalPlansTable>;
export type FunctionalPlanUpdate = Updateable<FunctionalPlansTable>;
export type FunctionalRunRow = Selectable<FunctionalRunsTable>;
export type NewFunctionalRunRow = Insertable<FunctionalRunsTable>;
export type FunctionalRunUpdate = Updateable<FunctionalRunsTable>;
export type NewFunctionalScreenshotRow = Insertable<FunctionalScreenshotsTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;
export type NewApiTokenRow = Insertable<ApiTokensTable>;
export type MessageRow = Selectable<MessagesTable>;
export type NewMessageRow = Insertable<MessagesTable>;
export type FeedbackRow = Selectable<FeedbackTable>;
export type NewFeedbackRow = Insertable<FeedbackTable>;

/** One question to James and its answer (docs/design.md §10); the user's last 200 are kept. */
export interface AssistantTurnsTable {
  id: string;
  user_id: string;
  /** The workspace the row belongs to (docs/adr/0035-workspaces-and-roles.md); a personal one's id is its user's. */
  workspace_id: string;
  /** 1, 2, … per user, in the order asked (times may tie). */
  seq: number;
  question: string;
  /** JSON of the AskAnswer as given. */
  answer: string;
  asked_at: string;
}
export type AssistantTurnRow = Selectable<AssistantTurnsTable>;
export type NewAssistantTurnRow = Insertable<AssistantTurnsTable>;

/** A server process on this database (docs/adr/0020-server-replicas.md); removed at its clean shutdown. */
export interface ServerInstancesTable {
  /** "srv_" + random, made at each start. */
  id: string;
  /** The machine's host name: leftover tool processes are only signalled on their own host. */
  host: string;
  pid: number;
  started_at: string;
  /** Refreshed every 5 s; a server not seen for 15 s is taken for dead. */
  last_seen_at: string;
}
export type ServerInstanceRow = Selectable<ServerInstancesTable>;

/** A saved plan's schedule (docs/adr/0031-schedules.md). */
export interface SchedulesTable {
  id: string;
  user_id: string;
  /** The workspace the row belongs to (docs/adr/0035-workspaces-and-roles.md); a personal one's id is its user's. */
  workspace_id: string;
  plan_id: string;
  /** SchedulePlanKind: 'load' (a row of plans) or 'functional' (a row of functional_plans). */
  plan_kind: string;
  /** Five fields, as normalCron() writes them. */
  cron: string;
  /** IANA time zone the cron expression is read in. */
  timezone: string;
  /** 1 or 0. */
  enabled: number;
  /** ISO UTC of the next time it comes round; null while disabled. */
  next_run_at: string | null;
  last_run_at: string | null;
  /** ScheduleOutcome of the last time it came round. */
  last_outcome: string | null;
  last_run_id: string | null;
  last_reason: string | null;
  /** JSON list of the notification channels told of its runs; '[]' by default (migration 0027). */
  channel_ids: ColumnType<string, string | undefined, string>;
  created_at: string;
  updated_at: string;
}
export type ScheduleRow = Selectable<SchedulesTable>;
export type NewScheduleRow = Insertable<SchedulesTable>;
export type ScheduleChanges = Updateable<SchedulesTable>;

/** A single sign-on under way at the provider (docs/adr/0033-single-sign-on.md); taken once by its callback. */
export interface SsoLoginsTable {
  /** sha256 hex of the `state` sent to the provider (also in the browser's cookie). */
  state_hash: string;
  /** The PKCE code verifier; the provider saw only its S256 challenge. */
  code_verifier: string;
  nonce: string;
  /** The web app's path to open once signed in. */
  return_to: string;
  created_at: string;
}
export type SsoLoginRow = Selectable<SsoLoginsTable>;
/** Where a user's runs are told (docs/adr/0032-notifications-out.md). */
export interface NotificationChannelsTable {
  /** "nch_" + random. */
  id: string;
  user_id: string;
  /** The workspace the row belongs to (docs/adr/0035-workspaces-and-roles.md); a personal one's id is its user's. */
  workspace_id: string;
  /** webhook | slack | teams | email */
  type: string;
  name: string;
  /** The receiver's https?:// address, or the e-mail address of an email channel. */
  url: string;
  /** A webhook's signing secret, whole (it signs each body); null for the other types or none given. */
  secret: string | null;
  /** JSON list of run_failed | threshold_failed | recovered. */
  events: string;
  created_at: string;
}
export type NotificationChannelRow = Selectable<NotificationChannelsTable>;

/** A channel chosen for a plan's runs; plan_kind 'load' (`plans`) or 'functional' (`functional_plans`). */
export interface NotificationPlanChannelsTable {
  user_id: string;
  /** The workspace the row belongs to (docs/adr/0035-workspaces-and-roles.md); a personal one's id is its user's. */
  workspace_id: string;
  plan_kind: string;
  plan_id: string;
  channel_id: string;
}

/** One notice to send on a channel (the outbox), with the exact body sent. */
export interface NotificationDeliveriesTable {
  /** "ndl_" + random. */
  id: string;
  user_id: string;
  /** The workspace the row belongs to (docs/adr/0035-workspaces-and-roles.md); a personal one's id is its user's. */
  workspace_id: string;
  channel_id: string;
  /** The run it tells of; null for a test notice. */
  run_id: string | null;
  /** run_failed | threshold_failed | recovered | test */
  event: string;
  /** The exact body sent (JSON for the web hooks, the message's JSON for e-mail). */
  body: string;
  /** pending | retrying | sent | failed */
  status: string;
  attempts: ColumnType<number, number | undefined, number>;
  /** When the next attempt is due (ISO-8601); null once sent or failed. */
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}
export type NotificationDeliveryRow = Selectable<NotificationDeliveriesTable>;

/** One attempt of a delivery and the receiver's answer. */
export interface NotificationAttemptsTable {
  delivery_id: string;
  /** 1, 2, … */
  attempt: number;
  /** sent | retrying | failed */
  status: string;
  /** The receiver's HTTP status; null for e-mail or when no answer came. */
  http_status: number | null;
  /** The start of the receiver's answer, the SMTP server's reply, or why nothing was answered. */
  answer: string;
  started_at: string;
  ended_at: string;
}
export type NotificationAttemptRow = Selectable<NotificationAttemptsTable>;

/** One call that created, changed, ran, stopped or deleted something (docs/adr/0034-audit-log.md). */
export interface AuditLogTable {
  id: string;
  /** Whose log: the account's own (until workspaces own things). */
  owner_id: string;
  actor_id: string;
  /** The actor's address when it happened. */
  actor_email: string;
  /** session | api_token */
  via: string;
  /** AuditAction */
  action: string;
  /** AuditObject */
  object: string;
  object_id: string | null;
  object_name: string | null;
  /** "METHOD /route/:pattern" */
  route: string;
  ip: string;
  at: string;
}
export type AuditLogRow = Selectable<AuditLogTable>;

/** A team workspace (docs/adr/0035-workspaces-and-roles.md); a personal workspace has no row. */
export interface WorkspacesTable {
  /** "ws_" + random: never a user's id, which names the user's personal workspace. */
  id: string;
  name: string;
  /** IANA time zone its schedules are offered in. */
  timezone: ColumnType<string, string | undefined, string>;
  created_by: string;
  created_at: string;
  updated_at: string;
}
export type WorkspaceRow = Selectable<WorkspacesTable>;

/** A member of a team workspace and their role. */
export interface WorkspaceMembersTable {
  workspace_id: string;
  user_id: string;
  /** WorkspaceRole: owner | editor | viewer */
  role: string;
  added_by: string;
  created_at: string;
}
export type WorkspaceMemberRow = Selectable<WorkspaceMembersTable>;

/** When each member read a message of their workspace (migration 0028). */
export interface MessageReadsTable {
  message_id: string;
  user_id: string;
  read_at: string;
}

/** An invite link to a team workspace (migration 0029): used once, until it expires. */
export interface WorkspaceInvitesTable {
  /** "inv_" + random: names the link in the owners' list; the token itself is never stored. */
  id: string;
  /** sha256 hex of the link's token. */
  token_hash: string;
  workspace_id: string;
  /** WorkspaceRole the person who accepts gets. */
  role: string;
  created_by: string;
  created_at: string;
  expires_at: string;
}
export type WorkspaceInviteRow = Selectable<WorkspaceInvitesTable>;
