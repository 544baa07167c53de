# AnybodyQA performance plan "Profile demo" for Locust 2.x.
# Run: locust -f <this file> --headless   (PlanShape follows the load profile; -u, -r and -t do not apply)
import itertools
import json
import math
import random
import re
import time

from locust import HttpUser, LoadTestShape, constant, events, task

# The load profile: (seconds from the start, iterations per second) at each corner of the planned line.
PLAN_PROFILE = [[0, 0], [10, 20], [40, 20]]
PLAN_PEAK_USERS = 25
PLAN_STOP_TIMEOUT = 5


@events.init_command_line_parser.add_listener
def _plan_defaults(parser):
    # Users that leave (a ramp down, the end) finish their iteration within the graceful stop.
    parser.set_defaults(stop_timeout=PLAN_STOP_TIMEOUT)


def _planned(t):
    """The planned line at t seconds from the start: linear between corners, a 0 s stage a step."""
    for (t0, v0), (t1, v1) in zip(PLAN_PROFILE, PLAN_PROFILE[1:]):
        if t < t1:
            return v0 + (v1 - v0) * (t - t0) / (t1 - t0)
    return PLAN_PROFILE[-1][1]


class PlanShape(LoadTestShape):
    def tick(self):
        run_time = self.get_run_time()
        if run_time >= PLAN_PROFILE[-1][0]:
            return None
        return (PLAN_PEAK_USERS, PLAN_PEAK_USERS)


# The open model (load-profile.ts ArrivalSchedule): iteration n is due when n + 1/2 iterations have
# accumulated under the planned rate; every user of this process takes the next one.
_ACCUMULATED = [0.0]
for (_t0, _r0), (_t1, _r1) in zip(PLAN_PROFILE, PLAN_PROFILE[1:]):
    _ACCUMULATED.append(_ACCUMULATED[-1] + (_r0 + _r1) / 2 * (_t1 - _t0))
_TOTAL_ITERATIONS = int(math.floor(_ACCUMULATED[-1] + 0.5))
_NEXT_ITERATION = itertools.count()
_RUN_START = []


@events.test_start.add_listener
def _run_started(**_kwargs):
    _RUN_START[:] = [time.time()]


def _due_s(n):
    """When iteration n (from 0) is due, in seconds from the start; None past the last."""
    if n >= _TOTAL_ITERATIONS:
        return None
    wanted = n + 0.5
    for i in range(1, len(PLAN_PROFILE)):
        if _ACCUMULATED[i] < wanted:
            continue
        (t0, a), (t1, b) = PLAN_PROFILE[i - 1], PLAN_PROFILE[i]
        need = wanted - _ACCUMULATED[i - 1]
        slope = (b - a) / (t1 - t0) if t1 > t0 else 0
        tau = 2 * need / (a + math.sqrt(max(0, a * a + 2 * slope * need)))
        return t0 + min(tau, t1 - t0)
    return PLAN_PROFILE[-1][0]


def _await_due_iteration():
    """Waits until the next iteration of the schedule is due; False when it has no more."""
    start = _RUN_START[0] if _RUN_START else time.time()
    due = _due_s(next(_NEXT_ITERATION))
    if due is None:
        # Nothing left to start: idle until the shape ends the run.
        time.sleep(max(0.0, start + PLAN_PROFILE[-1][0] - time.time()) + 1)
        return False
    time.sleep(max(0.0, start + due - time.time()))
    return True


def _http_error(res, body):
    """An answer with status >= 400 in the engine's words: "HTTP 500 Internal Server Error: <start of the body>"."""
    snippet = " ".join(body.split())
    if len(snippet) > 200:
        snippet = snippet[:200] + "\u2026"
    text = "HTTP %d" % res.status_code
    if res.reason:
        text += " " + str(res.reason)
    return text + (": " + snippet if snippet else "")


class PlanUser(HttpUser):
    wait_time = constant(0)
    # Only a default: every step names its full URL. --host overrides it.
    host = "http://127.0.0.1:8080"

    def on_start(self):
        self.vars = {}
        self.oauth_tokens = {}

    def v(self, name, raw):
        """A variable this user extracted, or the template as written while it has none."""
        return self.vars.get(name, raw)

    @task
    def iteration(self):
        if not _await_due_iteration():
            return
        # urls[0]: 1. Echo
        headers = {}
        with self.client.request("GET", "http://127.0.0.1:8080/api/echo", headers=headers, timeout=30, name="1. Echo", allow_redirects=False, catch_response=True) as res:
            body = res.text or ""
            if res.status_code >= 400:
                res.failure(_http_error(res, body))

