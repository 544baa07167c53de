import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers for the API and the web app. The CSP is the tightest under which the
 * Vite-built React app runs: its scripts are files from this origin; 'unsafe-inline' styles are
 * needed because Radix positions popovers with inline style attributes.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
};

/** The API reference's own files: public, the same for everyone, and fine to cache. */
const API_DOCS = /^\/api\/docs(?:[/?]|$)/;

/**
 * Every /api answer other than the API reference — signed-in answers, sign-in and sign-up answers
 * (which carry tokens), errors — says `Cache-Control: no-store`: no browser, proxy or shared cache
 * keeps a user's data or token (docs/design.md §11).
 */
export function isPrivateApiAnswer(url: string): boolean {
  return (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) && !API_DOCS.test(url);
}

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isPrivateApiAnswer(request.url)) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  await app.register(helmet, {
    global: true,
    // Defaults off: they would add upgrade-insecure-requests, which breaks http://localhost.
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    // The app is served over plain HTTP; HSTS belongs to the TLS-terminating proxy in front of it,
    // and sent on localhost it would pin every other local project to HTTPS.
    strictTransportSecurity: false,
  });
}
