/**
 * The flags the UI runs launch Chromium with — and so the browser tests (playwright.config.ts) and
 * scripts/measure-editor-paste.ts, which import this file alone (it imports nothing), so they use the
 * browser as UI runs have it. Besides quiet start-up: no QUIC, and WebRTC may send no
 * UDP that does not go through the proxy (docs/adr/0015-target-guard.md "UI runs"). Chrome reads that
 * policy from --webrtc-ip-handling-policy (into the profile's preference), content shell and the headless
 * shell from --force-webrtc-ip-handling-policy; each ignores the other's. The run's guard proxy is an
 * HTTP proxy, which carries no UDP: STUN, TURN over UDP, ICE checks and mDNS are not sent at all, and TURN
 * over TCP goes through the proxy, which asks the guard.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
