// AnybodyQA performance plan "Profile demo" for k6. Run: k6 run <this file>
// (the load profile is options.scenarios; --vus and --duration replace it with constant VUs).
import http from 'k6/http';
import { check, group, sleep } from 'k6';
import exec from 'k6/execution';
import { Rate } from 'k6/metrics';

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    plan: {
      executor: "ramping-arrival-rate",
      startRate: 0,
      timeUnit: "1s",
      preAllocatedVUs: 25,
      maxVUs: 25,
      gracefulStop: "5s",
      stages: [
        { duration: "10s", target: 20 },
        { duration: "30s", target: 20 },
      ],
    },
  },
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

export default function () {

  // urls[0]
  group("1. Echo", () => {
    /** @type {Record<string, string>} */
    const headers = {};
    const res = http.request("GET", "http://127.0.0.1:8080/api/echo", null, {
      headers,
      timeout: "30000ms",
      redirects: 0,
      tags: { name: "1. Echo" },
    });
    // error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).
    const ok = res.error_code === 0 && res.status < 400;
    errors.add(!ok);
  });
}
