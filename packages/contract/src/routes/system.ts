import { DemoCredentialsSchema } from '@aqa/plan';
import { z } from 'zod';
import { defineRoute } from '../route';

export const HealthResponseSchema = z.object({
  status: z.enum(['ok', 'error']),
  database: z.enum(['ok', 'unavailable']).describe('ok once a trivial query answered'),
  reason: z.string().optional().describe('Why the database is unavailable'),
  version: z.string(),
});

/**
 * What this server accepts in an upload (UPLOAD_MAX_FILE_MB, UPLOAD_MAX_MB; docs/adr/0024-memory-bounds.md):
 * the web checks a chosen file against it before sending, so a server set higher or lower is followed.
 */
export const UploadLimitsSchema = z.object({
  max_file_bytes: z.number().int().positive().describe('The largest file one upload may hold'),
  max_upload_bytes: z.number().int().positive().describe('The largest upload, all its files together'),
});
export type UploadLimitsAnswer = z.infer<typeof UploadLimitsSchema>;

export const system = {
  health: defineRoute({
    method: 'GET',
    url: '/api/health',
    schema: {
      tags: ['system'],
      summary: 'Liveness and database reachability',
      response: { 200: HealthResponseSchema, 503: HealthResponseSchema },
    },
  }),
  demoCredentials: defineRoute({
    method: 'GET',
    url: '/api/demo-credentials',
    schema: {
      tags: ['account'],
      summary:
        'What the sign-in page shows: the demo account, when it is enabled, and whether sign-up is open',
      response: { 200: DemoCredentialsSchema },
    },
  }),
  uploadLimits: defineRoute({
    method: 'GET',
    url: '/api/upload-limits',
    schema: {
      tags: ['system'],
      summary: 'The largest file and the largest upload this server accepts, in bytes',
      response: { 200: UploadLimitsSchema },
    },
  }),
};
