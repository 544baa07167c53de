# AnybodyQA performance plan "Profile demo" for Locust 2.x.
# Run: locust -f <this file> --headless   (PlanShape follows the load profile; -u, -r and -t do not apply)
import itertools
import json
import math
import random
import re
import time

from locust import HttpUser, LoadTestShape, constant, events, task

# The load profile: (seconds from the start, users) at each corner of the planned line.
PLAN_PROFILE = [[0, 0], [30, 10], [90, 10], [100, 0]]
PLAN_PEAK_USERS = 10
PLAN_STOP_TIMEOUT = 10


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
        return (int(math.floor(_planned(run_time) + 1e-9)), max(1, PLAN_PEAK_USERS))


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
        # urls[0]: 1. Echo
        headers = {}
        with self.client.request("GET", "http://127.0.0.1:8080/api/echo", headers=headers, timeout=30, name="1. Echo", allow_redirects=False, catch_response=True) as res:
            body = res.text or ""
            if res.status_code >= 400:
                res.failure(_http_error(res, body))

