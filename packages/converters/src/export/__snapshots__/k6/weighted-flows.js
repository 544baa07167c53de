// AnybodyQA performance plan "Weighted flows" for k6. Run: k6 run <this file>
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

// Flows: run-wide iteration n runs flow FLOW_CYCLE[n % FLOW_CYCLE.length]: 0 browse (3), 1 search (1).
// A smooth weighted round robin: each flow holds exactly its weight of every cycle, spread evenly.
const FLOW_CYCLE = [
  0, 0, 1, 0,
];

export default function () {
  const flow = FLOW_CYCLE[exec.scenario.iterationInTest % FLOW_CYCLE.length];
  if (flow === 0) {
    // Flow "browse", weight 3: its calls in plan order.
    // urls[0]
    group("1. Home", () => {
      /** @type {Record<string, string>} */
      const headers = {};
      const res = http.request("GET", "http://127.0.0.1:8080/api/echo/home", null, {
        headers,
        timeout: "30000ms",
        redirects: 0,
        tags: { name: "1. Home", flow: "browse" },
      });
      // error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).
      const ok = res.error_code === 0 && res.status < 400;
      errors.add(!ok);
    });

    // urls[2]
    group("3. Item", () => {
      /** @type {Record<string, string>} */
      const headers = {};
      const res = http.request("GET", "http://127.0.0.1:8080/api/echo/item", null, {
        headers,
        timeout: "30000ms",
        redirects: 0,
        tags: { name: "3. Item", flow: "browse" },
      });
      // error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).
      const ok = res.error_code === 0 && res.status < 400;
      errors.add(!ok);
    });
  } else if (flow === 1) {
    // Flow "search", weight 1: its calls in plan order.
    // urls[1]
    group("2. Search", () => {
      /** @type {Record<string, string>} */
      const headers = {};
      const res = http.request("GET", "http://127.0.0.1:8080/api/echo/search", null, {
        headers,
        timeout: "30000ms",
        redirects: 0,
        tags: { name: "2. Search", flow: "search" },
      });
      // error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).
      const ok = res.error_code === 0 && res.status < 400;
      errors.add(!ok);
    });
  }
}
