// AnybodyQA performance plan "Checkout flow" for k6. Run: k6 run <this file>
// (the plan sets the VUs and duration; --vus and --duration override them).
import http from 'k6/http';
import { check, group, sleep } from 'k6';
import exec from 'k6/execution';
import { Rate } from 'k6/metrics';

export const options = {
  vus: 2,
  duration: "60s",
  // No redirect is followed: a 3xx is the answer (every request also says redirects: 0).
  maxRedirects: 0,
};

// Requests that failed by the plan's rules: network error or time-out, status >= 400, or a failed assertion.
const errors = new Rate('aqa_errors');

/** Values this VU extracted; k6 gives every VU its own module scope. @type {Record<string, string>} */
const vars = {};

/**
 * A variable, or the template as written while the VU has no value for it.
 * @param {string} name @param {string} raw @returns {string}
 */
function v(name, raw) {
  return Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : raw;
}

/** @param {import("k6/http").RefinedResponse<import("k6/http").ResponseType | undefined>} res @returns {string} */
function bodyText(res) {
  return typeof res.body === 'string' ? res.body : '';
}

/** @param {string} url @param {Array<[string, string]>} pairs @returns {string} */
function withQuery(url, pairs) {
  const query = pairs.map(([key, value]) => encodeURIComponent(key) + '=' + encodeURIComponent(value)).join('&');
  return url + (url.includes('?') ? '&' : '?') + query;
}

/** The plan's assertion operators (AnybodyQA docs/design.md §4). @param {string} actual @param {string} op @param {string} expected */
function compare(actual, op, expected) {
  if (op === 'equals') return actual === expected;
  if (op === 'not_equals') return actual !== expected;
  if (op === 'contains') return actual.includes(expected);
  return new RegExp(expected).test(actual);
}

// OAuth2 client-credentials clients of the plan; each VU fetches a token before its first use.
const OAUTH_CLIENTS = [{"tokenUrl":"http://127.0.0.1:8080/oauth/token","clientId":"client-1","clientSecret":"s3cr:et$${x}&=","scope":""}];
/** @type {Record<number, string>} */
const oauthTokens = {};

/** @param {number} i @returns {string | undefined} */
function oauthToken(i) {
  if (oauthTokens[i] !== undefined) return oauthTokens[i];
  const client = OAUTH_CLIENTS[i];
  /** @type {Record<string, string>} */
  const form = { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret };
  if (client.scope !== '') form.scope = client.scope;
  const res = http.post(client.tokenUrl, form, { redirects: 0, tags: { name: 'OAuth2 token' } });
  let token;
  try {
    token = JSON.parse(bodyText(res)).access_token;
  } catch (e) {
    token = undefined;
  }
  errors.add(res.status >= 400 || typeof token !== 'string');
  if (typeof token !== 'string') return undefined;
  oauthTokens[i] = token;
  return token;
}

// Patterns of the regex and text extractions, compiled once per VU.
const RE_0 = new RegExp("\"token\":\"([^\"]+)\"");
const RE_1 = new RegExp("\"id\":\"([\\s\\S]*?)\"");

export default function () {
  // {{sequence_number,5}}: the run-wide iteration index, so 1..5 is shared by all VUs and wraps after 5.
  const aqa_seq_5 = (exec.scenario.iterationInTest % 5) + 1;

  // urls[0]
  group("1. Login", () => {
    /** @type {Record<string, string>} */
    const headers = { "Content-Type": "application/json" };
    const res = http.request("POST", "http://127.0.0.1:8080/api/login", "{\"user\":\"u" + String(aqa_seq_5) + "\"}", {
      headers,
      timeout: "30000ms",
      redirects: 0,
      tags: { name: "1. Login" },
    });
    const body = bodyText(res);
    // error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).
    let ok = res.error_code === 0 && res.status < 400;
    const actual = String(res.status);
    ok = check(res, { "1. Login: status equals 200": () => compare(actual, "equals", "200") }) && ok;
    errors.add(!ok);
    const match = RE_0.exec(body);
    if (match) vars["token"] = match[1] ?? '';
  });

  // urls[1]
  group("2. Profile", () => {
    /** @type {Record<string, string>} */
    const headers = { "Authorization": "Bearer " + v("token", "{{token}}") };
    const res = http.request("GET", withQuery("http://127.0.0.1:8080/api/profile", [["seq", String(aqa_seq_5)]]), null, {
      headers,
      timeout: "30000ms",
      redirects: 0,
      tags: { name: "2. Profile" },
    });
    const body = bodyText(res);
    // error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).
    let ok = res.error_code === 0 && res.status < 400;
    const actual = body;
    ok = check(res, { "2. Profile: body contains \"name\"": () => compare(actual, "contains", "\"name\"") }) && ok;
    errors.add(!ok);
    const match = RE_1.exec(body);
    if (match) vars["profileId"] = match[1] ?? '';
  });
  sleep(0.1);

  // urls[2]
  group("3. Save profile", () => {
    /** @type {Record<string, string>} */
    const headers = { "X-Session-Token": v("token", "{{token}}"), "X-Api-Key": "key-123", "Content-Type": "application/json" };
    const res = http.request("PUT", "http://127.0.0.1:8080/api/profiles/" + v("profileId", "{{profileId}}"), "{\"note\":\"n" + String(aqa_seq_5) + "\"}", {
      headers,
      timeout: "30000ms",
      redirects: 0,
      tags: { name: "3. Save profile" },
    });
    // error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).
    const ok = res.error_code === 0 && res.status < 400;
    errors.add(!ok);
  });

  // urls[3]
  // transactionRate: this step runs in 50% of the iterations, at random.
  if (Math.random() * 100 < 50) {
    group("4. Reference", () => {
      /** @type {Record<string, string>} */
      const headers = { "Authorization": "Basic YWxpY2U6cEBzczp3b3Jk" };
      const res = http.request("GET", "http://127.0.0.1:8080/api/refs/" + v("ref", "{{ref}}"), null, {
        headers,
        timeout: "30000ms",
        redirects: 0,
        tags: { name: "4. Reference" },
      });
      // error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).
      let ok = res.error_code === 0 && res.status < 400;
      const actual = String(res.status);
      ok = check(res, { "4. Reference: status equals 200": () => compare(actual, "equals", "200") }) && ok;
      errors.add(!ok);
    });
    sleep(0.1);
  }

  // urls[4]
  group("5. Secure", () => {
    /** @type {Record<string, string>} */
    const headers = {};
    const accessToken = oauthToken(0);
    if (accessToken !== undefined) headers['Authorization'] = 'Bearer ' + accessToken;
    const res = http.request("GET", "http://127.0.0.1:8080/api/secure", null, {
      headers,
      timeout: "30000ms",
      redirects: 0,
      tags: { name: "5. Secure" },
    });
    const body = bodyText(res);
    // error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).
    let ok = res.error_code === 0 && res.status < 400;
    const actual = body;
    ok = check(res, { "5. Secure: body regex \"secure\":\\s*true": () => compare(actual, "regex", "\"secure\":\\s*true") }) && ok;
    errors.add(!ok);
  });

  // urls[5]
  group("6. Ping", () => {
    /** @type {Record<string, string>} */
    const headers = {};
    const res = http.request("GET", withQuery("http://127.0.0.1:8080/api/ping", [["api_key", "q-456"]]), null, {
      headers,
      timeout: "30000ms",
      redirects: 0,
      tags: { name: "6. Ping" },
    });
    // error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).
    let ok = res.error_code === 0 && res.status < 400;
    const actual = String(res.status);
    ok = check(res, { "6. Ping: status not equals 500": () => compare(actual, "not_equals", "500") }) && ok;
    errors.add(!ok);
  });
}
