# AnybodyQA performance plan "JSON flow" for Locust 2.x.
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

# {{sequence_number,5}}: shared by every user of this process, next value each iteration, 1..5 then again.
AQA_SEQ_5 = itertools.count()
# OAuth2 client-credentials clients; each user fetches a token before its first use.
OAUTH_CLIENTS = [{"token_url": "http://127.0.0.1:8080/oauth/token", "client_id": "client-1", "client_secret": "s3cr:et$${x}&=", "scope": ""}]
# Patterns of the regex and text extractions.
RE_0 = re.compile("<ref>([^<]+)</ref>")


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


def _json_equals(value, kind, expected):
    """Whether a JSON value equals an expected JSON literal (AnybodyQA docs/design.md §4 "JSON literals"):
    a string only a string, a number a number of that value, true/false/null only themselves."""
    if kind == "null":
        return value is None
    if kind == "string":
        return isinstance(value, str) and value == expected
    if kind == "boolean":
        return isinstance(value, bool) and value == expected
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return float(value) == float(expected)  # as JavaScript reads both: 10 == 10.0
    except OverflowError:
        return False


def _json_shown(value):
    return "nothing" if value is _MISSING else json.dumps(value, ensure_ascii=False)[:200]


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

    def oauth_token(self, i):
        """The client-credentials token of OAUTH_CLIENTS[i], fetched once per user; None if that failed."""
        if i in self.oauth_tokens:
            return self.oauth_tokens[i]
        client = OAUTH_CLIENTS[i]
        form = {"grant_type": "client_credentials", "client_id": client["client_id"], "client_secret": client["client_secret"]}
        if client["scope"]:
            form["scope"] = client["scope"]
        with self.client.post(client["token_url"], data=form, name="OAuth2 token", allow_redirects=False, catch_response=True) as res:
            try:
                token = res.json().get("access_token")
            except ValueError:
                token = None
            if not isinstance(token, str):
                res.failure("no access_token in the token response")
                return None
        self.oauth_tokens[i] = token
        return token

    @task
    def iteration(self):
        aqa_seq_5 = next(AQA_SEQ_5) % 5 + 1
        # urls[0]: 1. Login
        headers = {"Content-Type": "application/json"}
        with self.client.request("POST", "http://127.0.0.1:8080/api/login", headers=headers, data=("{\"user\":\"u" + str(aqa_seq_5) + "\"}").encode("utf-8"), timeout=30, name="1. Login", allow_redirects=False, catch_response=True) as res:
            body = res.text or ""
            extracted = _json_text(body, [["k", "token"]])
            if extracted is not None:
                self.vars["token"] = extracted
            if res.status_code >= 400:
                res.failure(_http_error(res, body))
            elif res.status_code:
                actual = _json_text(body, [["k", "user"]]) or ""
                if not _compare(actual, "regex", "^u\\d+$"):
                    res.failure("Assertion failed: json $.user regex ^u\\d+$; got " + repr(actual[:200]))

        # urls[1]: 2. Profile
        headers = {"Authorization": "Bearer " + self.v("token", "{{token}}")}
        with self.client.request("GET", "http://127.0.0.1:8080/api/profile", params=[("seq", str(aqa_seq_5))], headers=headers, timeout=30, name="2. Profile", allow_redirects=False, catch_response=True) as res:
            body = res.text or ""
            extracted = _json_text(body, [["k", "id"]])
            if extracted is not None:
                self.vars["profileId"] = extracted
            if res.status_code >= 400:
                res.failure(_http_error(res, body))
            elif res.status_code:
                actual = _json_text(body, [["k", "name"]]) or ""
                if not _compare(actual, "contains", "User"):
                    res.failure("Assertion failed: json $['name'] contains User; got " + repr(actual[:200]))

        # urls[2]: 3. Save profile
        headers = {"X-Session-Token": self.v("token", "{{token}}"), "X-Api-Key": "key-123", "Content-Type": "application/json"}
        with self.client.request("PUT", "http://127.0.0.1:8080/api/profiles/" + self.v("profileId", "{{profileId}}"), headers=headers, data=("{\"note\":\"n" + str(aqa_seq_5) + "\"}").encode("utf-8"), timeout=30, name="3. Save profile", allow_redirects=False, catch_response=True) as res:
            body = res.text or ""
            match = RE_0.search(body)
            if match:
                self.vars["ref"] = (match.group(1) if match.re.groups else match.group(0)) or ""
            if res.status_code >= 400:
                res.failure(_http_error(res, body))
            elif res.status_code:
                actual = body
                if not _compare(actual, "equals", "<result><status>saved</status><ref>r-0</ref></result>"):
                    res.failure("Assertion failed: body equals <result><status>saved</status><ref>r-0</ref></result>; got " + repr(actual[:200]))

        # urls[3]: 4. Reference
        # transactionRate: runs in 50% of the iterations, at random.
        if random.random() * 100 < 50:
            headers = {"Authorization": "Basic YWxpY2U6cEBzczp3b3Jk"}
            with self.client.request("GET", "http://127.0.0.1:8080/api/refs/" + self.v("ref", "{{ref}}"), headers=headers, timeout=30, name="4. Reference", allow_redirects=False, catch_response=True) as res:
                body = res.text or ""
                if res.status_code >= 400:
                    res.failure(_http_error(res, body))
                elif res.status_code:
                    actual = str(res.status_code)
                    if not _compare(actual, "regex", "^2\\d\\d$"):
                        res.failure("Assertion failed: status regex ^2\\d\\d$; got " + repr(actual[:200]))
            time.sleep(0.2)

        # urls[4]: 5. Secure
        headers = {}
        access_token = self.oauth_token(0)
        if access_token is not None:
            headers["Authorization"] = "Bearer " + access_token
        with self.client.request("GET", "http://127.0.0.1:8080/api/secure", headers=headers, timeout=30, name="5. Secure", allow_redirects=False, catch_response=True) as res:
            body = res.text or ""
            if res.status_code >= 400:
                res.failure(_http_error(res, body))
            elif res.status_code:
                actual = _json_first(body, [["k", "secure"]])
                if _json_equals(actual, "boolean", False):
                    res.failure("Assertion failed: json $.secure not equals false; got " + _json_shown(actual))

        # urls[5]: 6. Ping
        headers = {}
        with self.client.request("GET", "http://127.0.0.1:8080/api/ping", params=[("api_key", "q-456")], headers=headers, timeout=30, name="6. Ping", allow_redirects=False, catch_response=True) as res:
            body = res.text or ""
            if res.status_code >= 400:
                res.failure(_http_error(res, body))

