import { ErrorResponseSchema } from '@aqa/plan';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CLI_FILE_NAME, type CliDownloadService } from '../services/cli-download.service';

/** The program's bytes as a download; a Buffer is sent as it is, not serialised by the 200 schema. */
function sendProgram(reply: FastifyReply, file: Buffer): FastifyReply {
  return reply
    .type('text/javascript; charset=utf-8')
    .header('content-disposition', `attachment; filename="${CLI_FILE_NAME}"`)
    .header('cache-control', 'no-cache')
    .send(file);
}

/**
 * GET /downloads/aqa.mjs: the `aqa` command line as one file (docs/reference/02-running.md §7). It is
 * outside /api and needs no sign-in: the program holds no secret (a CI job downloads it before it has
 * a token in hand), and what it may do on the server is what the API token given to it may do.
 */
export const downloadRoutes: FastifyPluginCallbackZod<{ cli: CliDownloadService }> = (app, { cli }, done) => {
  app.get(
    `/downloads/${CLI_FILE_NAME}`,
    {
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
    },
    async (_request, reply) => sendProgram(reply, await cli.file()),
  );
  done();
};
