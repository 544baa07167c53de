# AnybodyQA performance plan "Nasty\nname */ \"\"\" ${__time()} </x>" for Locust 2.x.
# Run: locust -f <this file> --headless   (the plan sets users and run time; -u, -r and -t override them)
import itertools
import json
import random
import re
import time

from locust import HttpUser, constant, events, task

PLAN_USERS = 1
PLAN_RUN_TIME = "60s"


@events.init_command_line_parser.add_listener
def _plan_defaults(parser):
    # The plan's load is the default; whatever the command line gives still wins.
    parser.set_defaults(num_users=PLAN_USERS, spawn_rate=PLAN_USERS, run_time=PLAN_RUN_TIME)

# Patterns of the regex and text extractions.
RE_0 = re.compile("\"(\\w+)\" ${__time()} ''' \"\"\" \\n")


def _http_error(res, body):
    """An answer with status >= 400 in the engine's words: "HTTP 500 Internal Server Error: <start of the body>"."""
    snippet = " ".join(body.split())
    if len(snippet) > 200:
        snippet = snippet[:200] + "\u2026"
    text = "HTTP %d" % res.status_code
    if res.reason:
        text += " " + str(res.reason)
    return text + (": " + snippet if snippet else "")


def _compare(actual, op, expected):
    """The plan's assertion operators."""
    if op == "equals":
        return actual == expected
    if op == "not_equals":
        return actual != expected
    if op == "contains":
        return expected in actual
    try:
        return re.search(expected, actual) is not None
    except re.error:
        return False  # a pattern Python cannot read fails this assertion, not the whole iteration


_MISSING = object()


def _json_first(body, path):
    """First match of a JSONPath given as segments ["k", name] ["i", n] ["*"] ["..", name]; _MISSING
    when the body is not JSON or nothing matches."""
    try:
        values = [json.loads(body)]
    except ValueError:
        return _MISSING
    for segment in path:
        found = []
        for value in values:
            if segment[0] == "..":
                _descendants(value, segment[1], found)
            elif segment[0] == "*":
                if isinstance(value, dict):
                    found.extend(value.values())
                elif isinstance(value, list):
                    found.extend(value)
            elif segment[0] == "i":
                if isinstance(value, list) and -len(value) <= segment[1] < len(value):
                    found.append(value[segment[1]])
            elif isinstance(value, dict) and segment[1] in value:
                found.append(value[segment[1]])
        values = found
    if not values:
        return _MISSING
    return values[0]


def _json_text(body, path):
    """The first match as text: a string as is, anything else as JSON; None when nothing matches."""
    first = _json_first(body, path)
    if first is _MISSING:
        return None
    return first if isinstance(first, str) else json.dumps(first, separators=(",", ":"), ensure_ascii=False)


def _descendants(value, key, found):
    if isinstance(value, dict):
        if key in value:
            found.append(value[key])
        for child in value.values():
            _descendants(child, key, found)
    elif isinstance(value, list):
        for child in value:
            _descendants(child, key, found)


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
        # urls[0]: 1. Line break """ ''' */ ${__time()} {{ x }}
        headers = {"X-Nasty": "\"d\" 'q' <a&b> ${__time()} $${x} {{ nope }} \\ \"\"\" ''' end$"}
        with self.client.request("POST", "http://127.0.0.1:8080/api/echo/\"q\"<a>&${__time()}/{{a:b}}/\\/\"\"\"/$", headers=headers, data=("\"double\" 'single' <tag attr=\"x\"> & ${__time()} ${__groovy(System.exit(1))} $${x} $$${y}\n{{ not a template }} {{sequence_number}} \\ back\\slash \\n \\u000a \"\"\" ''' */ </script> \u2028 \u2029 end$\né 日本 \ttab ${=new File(\"/tmp/x\").text}").encode("utf-8"), timeout=30, name="1. Line\nbreak \"\"\" ''' */ ${__time()} {{ x }}", allow_redirects=False, catch_response=True) as res:
            body = res.text or ""
            match = RE_0.search(body)
            if match:
                self.vars["picked"] = (match.group(1) if match.re.groups else match.group(0)) or ""
            if res.status_code >= 400:
                res.failure(_http_error(res, body))
            elif res.status_code:
                actual = body
                if not _compare(actual, "equals", "\"double\" 'single' <tag attr=\"x\"> & ${__time()} ${__groovy(System.exit(1))} $${x} $$${y}\n{{ not a template }} {{sequence_number}} \\ back\\slash \\n \\u000a \"\"\" ''' */ </script> \u2028 \u2029 end$\né 日本 \ttab ${=new File(\"/tmp/x\").text}"):
                    res.failure("Assertion failed: body equals \"double\" 'single' <tag attr=\"x\"> & ${__time()} ${__groovy...; got " + repr(actual[:200]))

        # urls[1]: 2. GET http://127.0.0.1:8080/api/echo/{{picked}}$
        headers = {"X-Dollar-Before-Variable": "cost $$$" + self.v("picked", "{{picked}}")}
        with self.client.request("GET", "http://127.0.0.1:8080/api/echo/" + self.v("picked", "{{picked}}") + "$", headers=headers, timeout=30, name="2. GET http://127.0.0.1:8080/api/echo/{{picked}}$", allow_redirects=False, catch_response=True) as res:
            body = res.text or ""
            if res.status_code >= 400:
                res.failure(_http_error(res, body))
            elif res.status_code:
                actual = _json_text(body, [["k", "a\"b"]]) or ""
                if not _compare(actual, "equals", "x'y\"z ${__time()}"):
                    res.failure("Assertion failed: json $['a\"b'] equals x'y\"z ${__time()}; got " + repr(actual[:200]))

