import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from './helpers';

// The interactive API reference: Swagger UI served by the app itself, under the app's own CSP.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.app.close();
  removeDir(server.dataDir);
});

/** The same-origin script and stylesheet addresses a page loads, resolved against the page's path. */
function assetsOf(html: string, pagePath: string): string[] {
  const found = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  return found.map((href) => new URL(href, `http://app${pagePath}`).pathname);
}

describe('GET /api/docs', () => {
  it('is an HTML page, without a token, that loads Swagger UI from this server', async () => {
    const response = await server.request({ method: 'GET', url: '/api/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<div id="swagger-ui">');
    expect(response.body).toContain('<title>AnybodyQA API</title>');

    const assets = assetsOf(response.body, '/api/docs');
    expect(assets).toEqual(
      expect.arrayContaining([
        '/api/docs/static/swagger-ui.css',
        '/api/docs/static/swagger-ui-bundle.js',
        '/api/docs/static/swagger-initializer.js',
      ]),
    );
    // Nothing from another origin (no CDN): every asset resolved onto this server.
    expect(response.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    for (const path of assets) {
      const asset = await server.request({ method: 'GET', url: path });
      expect(asset.statusCode, path).toBe(200);
      expect(asset.body.length, path).toBeGreaterThan(0);
    }
  });

  it("runs under the app's CSP: scripts only from this origin and no inline script", async () => {
    const response = await server.request({ method: 'GET', url: '/api/docs' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    // Every <script> has a src: an inline one would be blocked by script-src 'self'.
    const scripts = [...response.body.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) expect(attributes).toMatch(/\bsrc="/);
  });

  it('initialises Swagger UI on the JSON document at /api/docs/json, with no outside validator', async () => {
    const response = await server.request({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.body).toContain("resolveUrl('./json')");
    expect(response.body).toMatch(/validatorUrl: null/);
  });
});

describe('GET /api/docs/json', () => {
  it('is the OpenAPI 3 document of the API, without a token', async () => {
    const response = await server.request({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const doc = response.json<{ openapi: string; info: { title: string }; paths: Record<string, unknown> }>();
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.title).toBe('AnybodyQA API');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/get-test-result/{id}']),
    );
  });

  it('is also served as YAML at /api/docs/yaml', async () => {
    const response = await server.request({ method: 'GET', url: '/api/docs/yaml' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/^openapi: 3\.\d+\.\d+$/m);
  });

  it('keeps the rest of /api behind sign-in', async () => {
    const response = await server.request({ method: 'GET', url: '/api/me' });
    expect(response.statusCode).toBe(401);
  });
});
