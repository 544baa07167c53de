import { randomBytes } from 'node:crypto';
import { type AuditAction, type AuditEntry, type AuditList, type AuditObject } from '@aqa/plan';
import type { FastifyBaseLogger } from 'fastify';
import { type Clock, isoAt } from '../../clock';
import type { AuditLogRow } from '../../db/schema';
import type { AuditRepository } from '../../repositories/audit.repository';
import type { AccountUser } from '../account-user';

const DAY_MS = 24 * 3600_000;

let sequence = 0;

/**
 * An id that sorts as the entries were written: the time in ms, then this process's count (two entries
 * in one millisecond keep their order), then random (two replicas in one millisecond do not collide).
 */
export function newAuditId(atMs: number): string {
  sequence = (sequence + 1) % 36 ** 4;
  const time = Math.max(0, Math.floor(atMs)).toString(36).padStart(9, '0');
  return `aud_${time}${sequence.toString(36).padStart(4, '0')}${randomBytes(6).toString('hex')}`;
}

/** One thing done, as the audit hook hands it over. */
export interface AuditRecord {
  actor: AccountUser;
  via: 'session' | 'api_token';
  action: AuditAction;
  object: AuditObject;
  objectId: string | null;
  objectName: string | null;
  route: string;
  ip: string;
  /** Whose log, when not the workspace the call acted in (AuditedRoute.workspace). */
  workspaceId?: string;
}

function toEntry(row: AuditLogRow): AuditEntry {
  return {
    id: row.id,
    at: row.at,
    actor_email: row.actor_email,
    via: row.via as AuditEntry['via'],
    action: row.action as AuditAction,
    object: row.object as AuditObject,
    object_id: row.object_id,
    object_name: row.object_name,
    route: row.route,
    ip: row.ip,
  };
}

/** A CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a leading =+-@ is defused for spreadsheets. */
function csvField(value: string | null): string {
  const text = value ?? '';
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const AUDIT_CSV_HEADER = [
  'at',
  'actor',
  'via',
  'action',
  'object',
  'object_id',
  'object_name',
  'route',
  'ip',
];

/**
 * The audit log (docs/adr/0034-audit-log.md): written by the audit hook for each call that created,
 * changed, ran, stopped or deleted something; read by the owners of the workspace it happened in as a list or CSV; entries older than the retention are deleted.
 */
export class AuditService {
  constructor(
    private readonly log: AuditRepository,
    private readonly now: Clock,
    private readonly logger: FastifyBaseLogger,
    readonly retentionDays: number,
  ) {}

  /** Never throws: a call that was answered is not failed over its audit entry, which is logged instead. */
  async record(entry: AuditRecord): Promise<void> {
    try {
      const atMs = this.now();
      await this.log.insert({
        id: newAuditId(atMs),
        // Whose log: the workspace the call acted in (docs/adr/0035-workspaces-and-roles.md).
        owner_id: entry.workspaceId ?? entry.actor.workspaceId,
        actor_id: entry.actor.id,
        actor_email: entry.actor.email,
        via: entry.via,
        action: entry.action,
        object: entry.object,
        object_id: entry.objectId,
        object_name: entry.objectName,
        route: entry.route,
        ip: entry.ip,
        at: isoAt(atMs),
      });
    } catch (err) {
      this.logger.error({ err, route: entry.route }, 'Could not write the audit log entry');
    }
  }

  async list(user: AccountUser, limit: number, before?: string): Promise<AuditList> {
    const rows = await this.log.list(user.workspaceId, limit, before);
    return { entries: rows.map(toEntry), retention_days: this.retentionDays };
  }

  /** The whole log, newest first, as CSV text. */
  async csv(user: AccountUser): Promise<string> {
    const lines = [AUDIT_CSV_HEADER.join(',')];
    let before: string | undefined;
    for (;;) {
      const rows = await this.log.list(user.workspaceId, 1000, before);
      for (const row of rows) {
        lines.push(
          [
            row.at,
            row.actor_email,
            row.via,
            row.action,
            row.object,
            row.object_id,
            row.object_name,
            row.route,
            row.ip,
          ]
            .map(csvField)
            .join(','),
        );
      }
      if (rows.length < 1000) break;
      before = rows.at(-1)?.id;
    }
    return `${lines.join('\r\n')}\r\n`;
  }

  /** Deletes what is older than the retention; answers how many went. */
  prune(): Promise<number> {
    return this.log.deleteBefore(isoAt(this.now() - this.retentionDays * DAY_MS));
  }
}
