// AnybodyQA performance plan "Nasty\nname */ \"\"\" ${__time()} </x>" for k6. Run: k6 run <this file>
// (the plan sets the VUs and duration; --vus and --duration override them).
import http from 'k6/http';
import { check, group, sleep } from 'k6';
import exec from 'k6/execution';
import { Rate } from 'k6/metrics';

export const options = {
  vus: 1,
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

// Patterns of the regex and text extractions, compiled once per VU.
const RE_0 = new RegExp("\"(\\w+)\" ${__time()} ''' \"\"\" \\n");

export default function () {

  // urls[0]
  group("1. Line\nbreak \"\"\" ''' */ ${__time()} {{ x }}", () => {
    /** @type {Record<string, string>} */
    const headers = { "X-Nasty": "\"d\" 'q' <a&b> ${__time()} $${x} {{ nope }} \\ \"\"\" ''' end$" };
    const res = http.request("POST", "http://127.0.0.1:8080/api/echo/\"q\"<a>&${__time()}/{{a:b}}/\\/\"\"\"/$", "\"double\" 'single' <tag attr=\"x\"> & ${__time()} ${__groovy(System.exit(1))} $${x} $$${y}\n{{ not a template }} {{sequence_number}} \\ back\\slash \\n \\u000a \"\"\" ''' */ </script> \u2028 \u2029 end$\né 日本 \ttab ${=new File(\"/tmp/x\").text}", {
      headers,
      timeout: "30000ms",
      redirects: 0,
      tags: { name: "1. Line\nbreak \"\"\" ''' */ ${__time()} {{ x }}" },
    });
    const body = bodyText(res);
    // error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).
    let ok = res.error_code === 0 && res.status < 400;
    const actual = body;
    ok = check(res, { "1. Line\nbreak \"\"\" ''' */ ${__time()} {{ x }}: body equals \"double\" 'single' <tag attr=\"x\"> & ${__time()} ${__groovy...": () => compare(actual, "equals", "\"double\" 'single' <tag attr=\"x\"> & ${__time()} ${__groovy(System.exit(1))} $${x} $$${y}\n{{ not a template }} {{sequence_number}} \\ back\\slash \\n \\u000a \"\"\" ''' */ </script> \u2028 \u2029 end$\né 日本 \ttab ${=new File(\"/tmp/x\").text}") }) && ok;
    errors.add(!ok);
    const match = RE_0.exec(body);
    if (match) vars["picked"] = match[1] ?? '';
  });

  // urls[1]
  group("2. GET http://127.0.0.1:8080/api/echo/{{picked}}$", () => {
    /** @type {Record<string, string>} */
    const headers = { "X-Dollar-Before-Variable": "cost $$$" + v("picked", "{{picked}}") };
    const res = http.request("GET", "http://127.0.0.1:8080/api/echo/" + v("picked", "{{picked}}") + "$", null, {
      headers,
      timeout: "30000ms",
      redirects: 0,
      tags: { name: "2. GET http://127.0.0.1:8080/api/echo/{{picked}}$" },
    });
    const body = bodyText(res);
    // error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).
    let ok = res.error_code === 0 && res.status < 400;
    const actual = jsonText(body, [["k","a\"b"]]) ?? '';
    ok = check(res, { "2. GET http://127.0.0.1:8080/api/echo/{{picked}}$: json $['a\"b'] equals x'y\"z ${__time()}": () => compare(actual, "equals", "x'y\"z ${__time()}") }) && ok;
    errors.add(!ok);
  });
}
