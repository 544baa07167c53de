// AnybodyQA performance plan "JSON flow" for k6. Run: k6 run <this file>
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

/**
 * The first match of a JSONPath given as segments ["k",name] ["i",index] ["*"] ["..",name]; jsonText
 * gives it as text (a string as is, anything else as JSON). Undefined when the body is not JSON or
 * nothing matches.
 * @param {string} body @param {Array<Array<string | number>>} path @returns {unknown}
 */
function jsonFirst(body, path) {
  /** @type {unknown[]} */
  let values;
  try {
    values = [JSON.parse(body)];
  } catch (e) {
    return undefined;
  }
  for (const [op, arg] of path) {
    /** @type {unknown[]} */
    const next = [];
    for (const value of values) {
      if (op === '..') collectDescendants(value, String(arg), next);
      else if (op === '*') {
        if (value !== null && typeof value === 'object') next.push(...Object.values(value));
      } else if (op === 'i' && Array.isArray(value)) {
        const index = Number(arg) < 0 ? value.length + Number(arg) : Number(arg);
        if (index >= 0 && index < value.length) next.push(value[index]);
      } else if (op === 'k' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        if (Object.prototype.hasOwnProperty.call(value, String(arg))) {
          next.push(/** @type {Record<string, unknown>} */ (value)[String(arg)]);
        }
      }
    }
    values = next;
  }
  return values[0];
}

/** @param {string} body @param {Array<Array<string | number>>} path @returns {string | undefined} */
function jsonText(body, path) {
  const first = jsonFirst(body, path);
  if (first === undefined) return undefined;
  return typeof first === 'string' ? first : JSON.stringify(first);
}

/** @param {unknown} value @param {string} key @param {unknown[]} out */
function collectDescendants(value, key, out) {
  if (value === null || typeof value !== 'object') return;
  if (!Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, key)) {
    out.push(/** @type {Record<string, unknown>} */ (value)[key]);
  }
  for (const child of Object.values(value)) collectDescendants(child, key, out);
}

/**
 * Whether a JSON value equals an expected JSON literal (AnybodyQA docs/design.md §4 "JSON literals"):
 * a string only a string, a number a number of that value, true/false/null only themselves.
 * @param {unknown} value @param {{ kind: string, value?: unknown }} expected @returns {boolean}
 */
function jsonEquals(value, expected) {
  if (expected.kind === 'null') return value === null;
  return typeof value === expected.kind && value === expected.value;
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
const RE_0 = new RegExp("<ref>([^<]+)</ref>");

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
    const actual = jsonText(body, [["k","user"]]) ?? '';
    ok = check(res, { "1. Login: json $.user regex ^u\\d+$": () => compare(actual, "regex", "^u\\d+$") }) && ok;
    errors.add(!ok);
    const extracted = jsonText(body, [["k","token"]]);
    if (extracted !== undefined) vars["token"] = extracted;
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
    const actual = jsonText(body, [["k","name"]]) ?? '';
    ok = check(res, { "2. Profile: json $['name'] contains User": () => compare(actual, "contains", "User") }) && ok;
    errors.add(!ok);
    const extracted = jsonText(body, [["k","id"]]);
    if (extracted !== undefined) vars["profileId"] = extracted;
  });

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
    const body = bodyText(res);
    // error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).
    let ok = res.error_code === 0 && res.status < 400;
    const actual = body;
    ok = check(res, { "3. Save profile: body equals <result><status>saved</status><ref>r-0</ref></result>": () => compare(actual, "equals", "<result><status>saved</status><ref>r-0</ref></result>") }) && ok;
    errors.add(!ok);
    const match = RE_0.exec(body);
    if (match) vars["ref"] = match[1] ?? '';
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
      ok = check(res, { "4. Reference: status regex ^2\\d\\d$": () => compare(actual, "regex", "^2\\d\\d$") }) && ok;
      errors.add(!ok);
    });
    sleep(0.2);
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
    const actual = jsonFirst(body, [["k","secure"]]);
    ok = check(res, { "5. Secure: json $.secure not equals false": () => !jsonEquals(actual, {"kind":"boolean","value":false}) }) && ok;
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
    const ok = res.error_code === 0 && res.status < 400;
    errors.add(!ok);
  });
}
