import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * The pages the UI runner's tests open, served by the test itself on loopback: one that passes, one
 * without the expected element, a slow one, one with a console error and a missing image, a page that
 * shifts its layout, a form to type into and submit, a redirect, a page that shows an image from
 * elsewhere, a WebRTC probe and pages whose script never yields. It counts the requests each path receives.
 */

export interface TestSite {
  url: (path: string) => string;
  /** Requests received per path (without the query). */
  hits: Map<string, number>;
  close: () => Promise<void>;
}

const page = (title: string, body: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const PAGES: Record<string, (req: IncomingMessage, query: URLSearchParams, body: string) => string> = {
  '/pass': () =>
    page(
      'Shop home',
      `<h1 id="banner" style="font-size:48px">Welcome to the shop</h1>
       <p>Hello shoppers, today is a good day.</p>
       <div id="cart" class="cart"><span>Cart: 2 items</span></div>
       <a href="/form">Open the form</a>`,
    ),
  '/missing': () => page('Missing parts', '<h1>Nothing to buy here</h1><p>No cart on this page.</p>'),
  '/slow': () => page('Slow page', '<h1>Finally here</h1>'),
  '/errors': () =>
    page(
      'Broken page',
      `<h1>Partly broken</h1><img src="/no-such-image.png" alt="gone">
       <script>console.error('the widget failed to start')</script>`,
    ),
  '/shift': () =>
    page(
      'Shifting page',
      `<p id="first" style="font-size:32px">This text moves down when the banner arrives.</p>
       <p style="font-size:32px">And so does this line, and the one after.</p>
       <script>
         // Only a move of something already painted is a layout shift: the banner comes after the
         // first contentful paint, however slow the machine is.
         new PerformanceObserver((list, observer) => {
           observer.disconnect();
           requestAnimationFrame(() => {
             const d = document.createElement('div'); d.style.height = '300px'; d.textContent = 'Late banner';
             document.body.insertBefore(d, document.body.firstChild);
           });
         }).observe({ type: 'paint', buffered: true });
       </script>`,
    ),
  '/method': (req, _q, body) =>
    page('Method echo', `<p id="method">method ${req.method}</p><p id="body">${body}</p>`),
  '/form': () =>
    page(
      'Order form',
      `<form id="order" action="/result" method="get">
         <input id="name" name="customer" value="">
         <select id="size" name="size"><option value="s">Small</option><option value="l">Large</option></select>
         <input id="note" name="note" value="">
         <button id="send" type="submit">Send</button>
       </form>
       <p id="greeting">Hello</p>
       <button id="twice" ondblclick="document.getElementById('greeting').textContent='Double hello'">Twice</button>
       <button id="later" onclick="setTimeout(() => { const p = document.createElement('p'); p.id = 'arrived'; p.textContent = 'Arrived'; document.body.appendChild(p); }, 300)">Later</button>
       <a href="/pass">Back to the shop</a>`,
    ),
  '/embed': (_req, q) =>
    page('Embedding', `<h1>With a picture</h1><img src="${escapeHtml(q.get('src') ?? '')}" alt="elsewhere">`),
  // Everything a page can send without HTTP, aimed at host:udp and host:tcp: STUN and TURN servers over
  // UDP and TCP, a remote ICE candidate of each (connectivity checks go straight to it) and a
  // WebTransport session (QUIC over UDP). The load waits for /delay, so the browser gathers meanwhile.
  '/webrtc': (_req, q) => {
    const host = escapeHtml(q.get('host') ?? '');
    const udp = Number(q.get('udp'));
    const tcp = Number(q.get('tcp'));
    return page(
      'WebRTC probe',
      `<p id="state">starting</p>
       <script>
         (async () => {
           const say = (text) => { document.getElementById('state').textContent = text; };
           try {
             const pc = new RTCPeerConnection({ iceServers: [
               { urls: ['stun:${host}:${udp}'] },
               { urls: ['turn:${host}:${udp}?transport=udp', 'turn:${host}:${tcp}?transport=tcp'],
                 username: 'probe', credential: 'probe' },
             ] });
             pc.createDataChannel('probe');
             await pc.setLocalDescription(await pc.createOffer());
             const other = new RTCPeerConnection();
             await other.setRemoteDescription(pc.localDescription);
             await pc.setRemoteDescription(await other.createAnswer());
             const at = { sdpMid: '0', sdpMLineIndex: 0 };
             await pc.addIceCandidate({ ...at, candidate: 'candidate:1 1 udp 2122260223 ${host} ${udp} typ host' });
             await pc.addIceCandidate({ ...at, candidate: 'candidate:2 1 tcp 1518280447 ${host} ${tcp} typ host tcptype passive' });
             try { new WebTransport('https://${host}:${udp}/').closed.catch(() => {}); } catch {}
             say('probe sent');
           } catch (error) {
             say('probe failed: ' + error);
           }
         })();
       </script>
       <img src="/delay?ms=${Number(q.get('wait') ?? 3000)}" alt="">`,
    );
  },
  // A page whose script never yields: on load, or on a click of #spin.
  '/loop': () => page('Never yields', '<p>Loading</p><script>while (true) {}</script>'),
  '/spin': () => page('Spinner', '<h1>Ready</h1><button id="spin" onclick="while (true) {}">Spin</button>'),
  '/result': (_req, q) =>
    page(
      'Order received',
      `<p id="result">Ordered by ${escapeHtml(q.get('customer') ?? '')}, size ${escapeHtml(q.get('size') ?? '')}, note ${escapeHtml(q.get('note') ?? '')}</p>`,
    ),
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

function handler(hits: Map<string, number>) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const render = PAGES[url.pathname];
      const delayMs =
        url.pathname === '/slow'
          ? 1500
          : url.pathname === '/delay'
            ? Number(url.searchParams.get('ms') ?? 0)
            : 0;
      const answer = (): void => {
        if (url.pathname === '/redirect') {
          res.writeHead(302, { location: url.searchParams.get('to') ?? '/pass' }).end();
          return;
        }
        if (url.pathname === '/delay') {
          res.writeHead(200, { 'content-type': 'text/html' }).end(page('Delayed', '<p>late</p>'));
          return;
        }
        if (render === undefined) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(render(req, url.searchParams, Buffer.concat(chunks).toString('utf8')));
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  };
}

/** Serves the pages on `host` (a loopback address) at a free port. */
export async function startTestSite(host = '127.0.0.1'): Promise<TestSite> {
  const hits = new Map<string, number>();
  const server: Server = createServer(handler(hits));
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://${host}:${port}${path}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
