import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../errors';

export const WEB_APP_NOT_BUILT = 'The web app is not built. Run npm start.\n';

/** Vite puts content-hashed files under /assets: their URL changes whenever their bytes do. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/**
 * Serves the built web app and owns the not-found answer: unknown /api routes get JSON 404s, and
 * any other GET that is not a file gets index.html so the browser router can show the page
 * (single-page app fallback). index.html is never cached, so a new build is picked up at once.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<void> {
  const built = existsSync(join(webDistDir, 'index.html'));
  const assetsDir = join(webDistDir, 'assets') + sep;
  if (built) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        res.setHeader('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : 'no-cache');
      },
    });
  } else {
    app.log.warn({ webDistDir }, 'The web app is not built; serving the API only');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (isApiPath(path)) throw new NotFoundError('NO_API_ROUTE', `No API route ${request.method} ${path}`);
    // A missing file (a name with an extension) is a real 404: answering index.html would hand the
    // browser HTML where it expects a script or an image.
    const lastSegment = path.slice(path.lastIndexOf('/') + 1);
    if ((request.method !== 'GET' && request.method !== 'HEAD') || lastSegment.includes('.')) {
      throw new NotFoundError('NOT_FOUND', `Nothing at ${request.method} ${path}`);
    }
    if (!built) return reply.code(503).type('text/plain; charset=utf-8').send(WEB_APP_NOT_BUILT);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
