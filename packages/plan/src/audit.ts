import { z } from 'zod';
import { wholeNumber } from './strict-input';

/*
 * The audit log (docs/adr/0034-audit-log.md): who created, changed, ran, stopped or deleted what, and
 * when. The wire shapes of GET /api/audit; the server's record and the Settings screen read these.
 */

/** What was done. */
export const AUDIT_ACTIONS = ['created', 'changed', 'ran', 'stopped', 'deleted'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What it was done to. */
export const AUDIT_OBJECTS = [
  'load_plan',
  'functional_plan',
  'load_run',
  'functional_run',
  'schedule',
  'api_token',
  'load_agent',
  'account',
  'assistant_conversation',
  'notification_channel',
  'workspace',
  'workspace_member',
  'workspace_invite',
] as const;
export type AuditObject = (typeof AUDIT_OBJECTS)[number];

/** Entries one page answers at most. */
export const AUDIT_PAGE_MAX = 500;
/** Days entries are kept by default (AUDIT_RETENTION_DAYS). */
export const AUDIT_RETENTION_DAYS_DEFAULT = 365;

export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string().describe('ISO time the call was answered'),
  actor_email: z.string().describe('Who did it, as their address was then'),
  via: z.enum(['session', 'api_token']).describe('Signed in, or an API token (CI)'),
  action: z.enum(AUDIT_ACTIONS),
  object: z.enum(AUDIT_OBJECTS),
  object_id: z.string().nullable(),
  object_name: z.string().nullable().describe('Its name as the call gave it, when it gave one'),
  route: z.string().describe('The call: method and route, e.g. "POST /api/run-test"'),
  ip: z.string().describe("The caller's address"),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditListSchema = z.object({
  entries: z.array(AuditEntrySchema),
  retention_days: z.number().int().describe('How long entries are kept'),
});
export type AuditList = z.infer<typeof AuditListSchema>;

export const AuditQuerySchema = z.object({
  limit: wholeNumber(`limit must be a whole number from 1 to ${AUDIT_PAGE_MAX}`, 1, AUDIT_PAGE_MAX)
    .default(100)
    .describe('Newest first'),
  before: z
    .string()
    .max(60)
    .optional()
    .describe('An entry id: only the entries older than it (the next page)'),
});
