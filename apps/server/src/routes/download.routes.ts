import type { FastifyReply } from 'fastify';
import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
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
  app.route({
    ...contract.downloads.cli,
    handler: async (_request, reply) => sendProgram(reply, await cli.file()),
  });
  done();
};
