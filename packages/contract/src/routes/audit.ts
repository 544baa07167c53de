import { AuditListSchema, AuditQuerySchema } from '@aqa/plan';
import { z } from 'zod';
import { defineRoute, SCOPED_ERRORS } from '../route';

const tags = ['account'];

/** The audit log (docs/adr/0034-audit-log.md): the caller's own account's, newest first. */
export const audit = {
  list: defineRoute({
    method: 'GET',
    url: '/api/audit',
    schema: {
      tags,
      summary: 'Who created, changed, ran, stopped or deleted what, and when: newest first',
      description: 'Entries are kept for AUDIT_RETENTION_DAYS (365 by default).',
      querystring: AuditQuerySchema,
      response: { 200: AuditListSchema, ...SCOPED_ERRORS },
    },
  }),
  export: defineRoute({
    method: 'GET',
    url: '/api/audit/export',
    schema: {
      tags,
      summary: 'The whole audit log as CSV (RFC 4180), newest first',
      response: { 200: z.string().describe('text/csv'), ...SCOPED_ERRORS },
    },
  }),
};
