# AnybodyQA performance plan "Weighted flows" for Locust 2.x.
# Run: locust -f <this file> --headless   (the plan sets users and run time; -u, -r and -t override them)
import itertools
import json
import random
import re
import time

from locust import HttpUser, constant, events, task

PLAN_USERS = 2
PLAN_RUN_TIME = "60s"


@events.init_command_line_parser.add_listener
def _plan_defaults(parser):
    # The plan's load is the default; whatever the command line gives still wins.
    parser.set_defaults(num_users=PLAN_USERS, spawn_rate=PLAN_USERS, run_time=PLAN_RUN_TIME)



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

    @task(3)
    def flow_0(self):
        # Flow "browse", weight 3: its calls in plan order.
        # urls[0]: 1. Home
        headers = {}
        with self.client.request("GET", "http://127.0.0.1:8080/api/echo/home", headers=headers, timeout=30, name="1. Home", allow_redirects=False, catch_response=True) as res:
            body = res.text or ""
            if res.status_code >= 400:
                res.failure(_http_error(res, body))

        # urls[2]: 3. Item
        headers = {}
        with self.client.request("GET", "http://127.0.0.1:8080/api/echo/item", headers=headers, timeout=30, name="3. Item", allow_redirects=False, catch_response=True) as res:
            body = res.text or ""
            if res.status_code >= 400:
                res.failure(_http_error(res, body))


    @task(1)
    def flow_1(self):
        # Flow "search", weight 1: its calls in plan order.
        # urls[1]: 2. Search
        headers = {}
        with self.client.request("GET", "http://127.0.0.1:8080/api/echo/search", headers=headers, timeout=30, name="2. Search", allow_redirects=False, catch_response=True) as res:
            body = res.text or ""
            if res.status_code >= 400:
                res.failure(_http_error(res, body))

