import { ErrorResponseSchema } from '@aqa/plan';
import { z } from 'zod';
import { defineRoute } from '../route';

/**
 * GET /downloads/aqa.mjs: the `aqa` command line as one file (docs/reference/02-running.md §7), outside
 * /api and public.
 */
export const downloads = {
  cli: defineRoute({
    method: 'GET',
    url: '/downloads/aqa.mjs',
    schema: {
      tags: ['downloads'],
      summary:
        'The aqa command line as one file: `node aqa.mjs --help` runs it with Node 20 and nothing installed',
      description:
        'Public (no token): the file holds no secret. `aqa run --plan ID` and `aqa test --plan ID` with --server and an API token (AQA_SERVER, AQA_TOKEN) start a saved plan on this server and exit 0, 1 (a threshold or validation failed) or 2 (it could not run). 503 CLI_NOT_BUILT when the server was not built.',
      security: [],
      response: {
        200: z.string().describe('The program (text/javascript), as an attachment named aqa.mjs'),
        503: ErrorResponseSchema,
      },
    },
  }),
};
