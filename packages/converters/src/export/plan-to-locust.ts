import { ERROR_BODY_SNIPPET_CHARS, type LoadProfile, peakTarget, profilePoints } from '@aqa/plan';
import { scriptFileName } from './file-name';
import { segmentsAsData } from './json-path';
import {
  type GeneratorOptions,
  type AssertionModel,
  type ExtractionModel,
  type GeneratedScript,
  type ScriptSource,
  type ScriptWarning,
  type StepModel,
  type Value,
  buildScriptModel,
  uniqueWarnings,
  type DataModel,
  dataFiles,
  dataFileWarnings,
} from './script-model';
import { arrivalPool, gracefulStopMs } from './profile-segments';
import { pyLiteral, pyString } from './serializers/python-literal';
import { escapeOroRegex } from './serializers/regex-escape';
import { textExtractionPattern } from './text-extraction';
import { originText, splitOrigin } from './url-parts';
import { XPathSubsetError, xpathToElementTree } from './xpath-subset';

/**
 * Locust file (Locust 2.x): one HttpUser class whose single task is one iteration over the plan's steps
 * (docs/design.md §4), with no wait between iterations. The plan's users and duration are the command line's
 * defaults, so `locust -f file --headless` runs the plan and -u/-t still override it. Variables live on
 * the user; {{sequence_number,N}} is a counter shared by every user of the Locust process (in distributed
 * mode each worker counts on its own). Status ≥ 400 fails the request with its status, reason and the
 * start of its body (_http_error); a network error as Locust does by default; a failed assertion with
 * res.failure(). No redirect is followed: a 3xx is the answer
 * (docs/adr/0015-target-guard.md "Redirects").
 */
export function planToLocust(source: ScriptSource, options: GeneratorOptions = {}): GeneratedScript {
  const { profile } = options;
  const model = buildScriptModel(source);
  const warnings = [...model.warnings];
  const regexes: string[] = [];
  const steps = model.steps.map((step) => stepCode(step, warnings, regexes));
  const code = steps.flat().join('\n');
  const uses = (name: string) => code.includes(name);
  const firstOrigin = model.steps.map((s) => splitOrigin(s.url)).find((o) => o !== undefined);

  const imports = ['itertools', 'json', 'random', 're', 'time'];
  if (uses('base64.')) imports.splice(0, 0, 'base64');
  if (profile) imports.splice(imports.indexOf('random'), 0, 'math');
  if (model.data.length > 0) imports.splice(0, 0, 'csv', 'os');
  const lines: string[] = [
    `# AnybodyQA performance plan ${pyString(model.name)} for Locust 2.x.`,
    profile
      ? '# Run: locust -f <this file> --headless   (PlanShape follows the load profile; -u, -r and -t do not apply)'
      : '# Run: locust -f <this file> --headless   (the plan sets users and run time; -u, -r and -t override them)',
    ...imports.map((m) => `import ${m}`),
    ...(uses('_xml_text(') ? ['import xml.etree.ElementTree as ET'] : []),
    '',
    `from locust import HttpUser, ${profile ? 'LoadTestShape, ' : ''}constant, events, task`,
    ...(model.data.some((d) => !d.loop) ? ['from locust.exception import StopUser'] : []),
    '',
    ...(profile
      ? locustProfile(profile, warnings)
      : [
          `PLAN_USERS = ${model.users}`,
          `PLAN_RUN_TIME = ${pyString(`${model.durationS}s`)}`,
          '',
          '',
          '@events.init_command_line_parser.add_listener',
          'def _plan_defaults(parser):',
          "    # The plan's load is the default; whatever the command line gives still wins.",
          '    parser.set_defaults(num_users=PLAN_USERS, spawn_rate=PLAN_USERS, run_time=PLAN_RUN_TIME)',
          '',
        ]),
  ];
  for (const { max, ident } of model.sequences) {
    lines.push(
      `# {{sequence_number,${max}}}: shared by every user of this process, next value each iteration, 1..${max} then again.`,
      `${ident.toUpperCase()} = itertools.count()`,
    );
  }
  if (model.data.length > 0) lines.push(...locustDataRows(model.data));
  if (model.oauthClients.length > 0) {
    const clients = model.oauthClients.map((c) => ({
      token_url: c.tokenUrl,
      client_id: c.clientId,
      client_secret: c.clientSecret,
      scope: c.scope,
    }));
    lines.push(
      '# OAuth2 client-credentials clients; each user fetches a token before its first use.',
      `OAUTH_CLIENTS = ${pyLiteral(clients)}`,
    );
  }
  if (regexes.length > 0) {
    lines.push('# Patterns of the regex and text extractions.');
    regexes.forEach((pattern, i) => lines.push(`RE_${i} = re.compile(${pyString(pattern)})`));
  }
  if (uses('_http_error(')) lines.push('', '', ...HTTP_ERROR_HELPER);
  if (uses('_compare(')) lines.push('', '', ...COMPARE_HELPER);
  if (uses('_json_text(') || uses('_json_first(')) lines.push('', '', ...JSON_HELPER);
  if (uses('_json_equals(')) lines.push('', '', ...JSON_LITERAL_HELPER);
  if (uses('_xml_text(')) lines.push('', '', ...XML_HELPER);

  lines.push(
    '',
    '',
    'class PlanUser(HttpUser):',
    '    wait_time = constant(0)',
    `    # Only a default: every step names its full URL. --host overrides it.`,
    `    host = ${pyString(firstOrigin ? originText(firstOrigin.origin) : 'http://localhost')}`,
    '',
    '    def on_start(self):',
    '        self.vars = {}',
    '        self.oauth_tokens = {}',
    ...(model.data.some((d) => d.share === 'user')
      ? [
          `        self.data_next = [0] * ${model.data.length}  # share: user, this user's next row of each source`,
        ]
      : []),
    '',
    '    def v(self, name, raw):',
    '        """A variable this user extracted, or the template as written while it has none."""',
    '        return self.vars.get(name, raw)',
  );
  if (model.oauthClients.length > 0) lines.push('', ...OAUTH_METHOD);
  // One task for the whole plan, or (docs/adr/0027-load-profiles.md "Flows") one @task(weight) per
  // flow running its calls in order: Locust picks each iteration's task at random by the weights.
  const tasks =
    model.flows.length === 0
      ? [{ decorator: '@task', name: 'iteration', comment: [], blocks: steps }]
      : model.flows.map((flow, f) => ({
          decorator: `@task(${flow.weight})`,
          name: `flow_${f}`,
          comment: [`# Flow ${pyString(flow.name)}, weight ${flow.weight}: its calls in plan order.`],
          blocks: flow.steps.map((step) => steps[step.index]!),
        }));
  for (const t of tasks) {
    lines.push('', `    ${t.decorator}`, `    def ${t.name}(self):`, ...t.comment.map((l) => `        ${l}`));
    if (profile?.model === 'arrival_rate') {
      lines.push('        if not _await_due_iteration():', '            return');
    }
    for (const { max, ident } of model.sequences) {
      lines.push(`        ${ident} = next(${ident.toUpperCase()}) % ${max} + 1`);
    }
    // Each iteration's row of the test data, whichever flow it runs.
    model.data.forEach((data, k) => lines.push(...locustDataRow(data, k)));
    for (const block of t.blocks) lines.push(...block.map((l) => (l === '' ? '' : `        ${l}`)));
    if (t.blocks.length === 0) lines.push('        pass');
  }
  lines.push('');

  warnings.push(...dataFileWarnings(model.data));
  return {
    files: [
      { name: scriptFileName('locust', source.name), content: lines.join('\n') },
      ...dataFiles(model.data, options),
    ],
    warnings: uniqueWarnings(warnings),
  };
}

/**
 * The data sources' rows, read once beside this file; share all: one iterator for every user of the
 * process (gevent switches only at I/O, so next() hands each row out once).
 */
function locustDataRows(data: readonly DataModel[]): string[] {
  return data.flatMap((d, k) => [
    `# Test data ${pyString(d.path)} (docs/adr/0027-load-profiles.md "Test data"): ${d.rowCount} rows.`,
    `with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), ${pyString(d.file)}), newline="", encoding="utf-8") as _data:`,
    `    DATA_${k + 1} = list(csv.reader(_data))`,
    ...(d.share === 'all' ? [`DATA_${k + 1}_NEXT = itertools.count()`] : []),
  ]);
}

/** The iteration's row of a data source into self.vars; past the end a looping source starts over, another stops the user. */
function locustDataRow(data: DataModel, k: number): string[] {
  const n = k + 1;
  const index =
    data.share === 'all'
      ? [`        data_index = next(DATA_${n}_NEXT)`]
      : [`        data_index = self.data_next[${k}]`, `        self.data_next[${k}] += 1`];
  return [
    ...index,
    ...(data.loop ? [] : [`        if data_index >= len(DATA_${n}):`, '            raise StopUser()']),
    `        row = DATA_${n}[data_index % len(DATA_${n})]`,
    ...data.columns.map((c, i) => `        self.vars[${pyString(c.name)}] = row[${i}]`),
  ];
}

/**
 * A load profile as Locust runs one (docs/adr/0027-load-profiles.md "7. Where a profile goes"): a
 * LoadTestShape whose tick() (once a second) returns the planned users — the line rounded down, as the
 * engine schedules them — with a spawn rate that reaches them within the second; leaving users finish
 * their iteration within the graceful stop (--stop-timeout, whole seconds). Locust has no arrival-rate
 * executor: for the open model the shape holds the pool, and every user takes the next iteration of the
 * schedule (ArrivalSchedule in load-profile.ts, written out in Python) and waits until it is due.
 */
function locustProfile(profile: LoadProfile, warnings: ScriptWarning[]): string[] {
  const points = profilePoints(profile).map((p) => [p.atMs / 1000, p.target]);
  const stopS = Math.ceil(gracefulStopMs(profile) / 1000);
  const open = profile.model === 'arrival_rate';
  const pool = arrivalPool(profile);
  const common = [
    `# The load profile: (seconds from the start, ${open ? 'iterations per second' : 'users'}) at each corner of the planned line.`,
    `PLAN_PROFILE = ${pyLiteral(points)}`,
    `PLAN_PEAK_USERS = ${open ? pool : peakTarget(profile)}`,
    `PLAN_STOP_TIMEOUT = ${stopS}`,
    '',
    '',
    '@events.init_command_line_parser.add_listener',
    'def _plan_defaults(parser):',
    '    # Users that leave (a ramp down, the end) finish their iteration within the graceful stop.',
    '    parser.set_defaults(stop_timeout=PLAN_STOP_TIMEOUT)',
    '',
    '',
    'def _planned(t):',
    '    """The planned line at t seconds from the start: linear between corners, a 0 s stage a step."""',
    '    for (t0, v0), (t1, v1) in zip(PLAN_PROFILE, PLAN_PROFILE[1:]):',
    '        if t < t1:',
    '            return v0 + (v1 - v0) * (t - t0) / (t1 - t0)',
    '    return PLAN_PROFILE[-1][1]',
    '',
    '',
    'class PlanShape(LoadTestShape):',
    '    def tick(self):',
    '        run_time = self.get_run_time()',
    '        if run_time >= PLAN_PROFILE[-1][0]:',
    '            return None',
    open
      ? '        return (PLAN_PEAK_USERS, PLAN_PEAK_USERS)'
      : '        return (int(math.floor(_planned(run_time) + 1e-9)), max(1, PLAN_PEAK_USERS))',
  ];
  if (!open) return common;
  warnings.push({
    field: 'load_profile.model',
    message: `Locust has no arrival-rate executor: a pool of ${pool} users takes the iterations of the schedule in turn, each waiting until its iteration is due; when every user is busy an iteration starts late instead of being dropped and counted as the engine does`,
  });
  return [
    ...common,
    '',
    '',
    '# The open model (load-profile.ts ArrivalSchedule): iteration n is due when n + 1/2 iterations have',
    '# accumulated under the planned rate; every user of this process takes the next one.',
    '_ACCUMULATED = [0.0]',
    'for (_t0, _r0), (_t1, _r1) in zip(PLAN_PROFILE, PLAN_PROFILE[1:]):',
    '    _ACCUMULATED.append(_ACCUMULATED[-1] + (_r0 + _r1) / 2 * (_t1 - _t0))',
    '_TOTAL_ITERATIONS = int(math.floor(_ACCUMULATED[-1] + 0.5))',
    '_NEXT_ITERATION = itertools.count()',
    '_RUN_START = []',
    '',
    '',
    '@events.test_start.add_listener',
    'def _run_started(**_kwargs):',
    '    _RUN_START[:] = [time.time()]',
    '',
    '',
    'def _due_s(n):',
    '    """When iteration n (from 0) is due, in seconds from the start; None past the last."""',
    '    if n >= _TOTAL_ITERATIONS:',
    '        return None',
    '    wanted = n + 0.5',
    '    for i in range(1, len(PLAN_PROFILE)):',
    '        if _ACCUMULATED[i] < wanted:',
    '            continue',
    '        (t0, a), (t1, b) = PLAN_PROFILE[i - 1], PLAN_PROFILE[i]',
    '        need = wanted - _ACCUMULATED[i - 1]',
    '        slope = (b - a) / (t1 - t0) if t1 > t0 else 0',
    '        tau = 2 * need / (a + math.sqrt(max(0, a * a + 2 * slope * need)))',
    '        return t0 + min(tau, t1 - t0)',
    '    return PLAN_PROFILE[-1][0]',
    '',
    '',
    'def _await_due_iteration():',
    '    """Waits until the next iteration of the schedule is due; False when it has no more."""',
    '    start = _RUN_START[0] if _RUN_START else time.time()',
    '    due = _due_s(next(_NEXT_ITERATION))',
    '    if due is None:',
    '        # Nothing left to start: idle until the shape ends the run.',
    '        time.sleep(max(0.0, start + PLAN_PROFILE[-1][0] - time.time()) + 1)',
    '        return False',
    '    time.sleep(max(0.0, start + due - time.time()))',
    '    return True',
  ];
}

function pyValue(value: Value): string {
  if (value.length === 0) return '""';
  return value
    .map((part) =>
      part.kind === 'text'
        ? pyString(part.text)
        : part.kind === 'var'
          ? `self.v(${pyString(part.name)}, ${pyString(part.raw)})`
          : `str(${part.ident})`,
    )
    .join(' + ');
}

function stepCode(step: StepModel, warnings: ScriptWarning[], regexes: string[]): string[] {
  const inner: string[] = [
    `headers = {${step.headers.map((h) => `${pyString(h.name)}: ${pyValue(h.value)}`).join(', ')}}`,
  ];
  if (step.oauthClient !== undefined) {
    inner.push(
      `access_token = self.oauth_token(${step.oauthClient})`,
      'if access_token is not None:',
      '    headers["Authorization"] = "Bearer " + access_token',
    );
  }
  if (step.basicAuth) {
    inner.push(
      `credentials = ${pyValue(step.basicAuth.username)} + ":" + ${pyValue(step.basicAuth.password)}`,
      'headers["Authorization"] = "Basic " + base64.b64encode(credentials.encode("utf-8")).decode("ascii")',
    );
  }
  const args = [
    pyString(step.method),
    pyValue(step.url),
    ...(step.query.length
      ? [`params=[${step.query.map((q) => `(${pyString(q.name)}, ${pyValue(q.value)})`).join(', ')}]`]
      : []),
    'headers=headers',
    ...(step.body ? [`data=(${pyValue(step.body)}).encode("utf-8")`] : []),
    `timeout=${step.timeoutMs / 1000}`,
    `name=${pyString(step.label)}`,
    // docs/adr/0015-target-guard.md "Redirects": requests follows by default; here a 3xx is the answer.
    'allow_redirects=False',
    'catch_response=True',
  ];
  // The engine's order: the extraction reads every answer, the assertion judges one below 400.
  const extraction = step.extraction ? extractionCode(step, step.extraction, warnings, regexes) : [];
  const assertion = step.assertion ? assertionCode(step, step.assertion, warnings) : [];
  inner.push(`with self.client.request(${args.join(', ')}) as res:`);
  inner.push('    body = res.text or ""', ...extraction.map((l) => `    ${l}`));
  // Status >= 400 fails the request with its status, reason and the start of its body, as the engine
  // words it (docs/reference/02-running.md §3 "Errors by kind"), not with an assertion about an empty
  // value. No answer at all (status 0): Locust reports the network error when the block ends.
  inner.push('    if res.status_code >= 400:', '        res.failure(_http_error(res, body))');
  if (assertion.length > 0) inner.push('    elif res.status_code:', ...assertion.map((l) => `        ${l}`));
  if (step.thinkTimeMs > 0) inner.push(`time.sleep(${step.thinkTimeMs / 1000})`);

  const block = [`# ${step.field}: ${step.label.replace(/[\r\n\u2028\u2029\u0085]/g, ' ')}`];
  if (step.ratePercent < 100) {
    block.push(
      `# transactionRate: runs in ${step.ratePercent}% of the iterations, at random.`,
      `if random.random() * 100 < ${step.ratePercent}:`,
      ...inner.map((l) => `    ${l}`),
    );
  } else block.push(...inner);
  block.push('');
  return block;
}

function assertionCode(step: StepModel, assertion: AssertionModel, warnings: ScriptWarning[]): string[] {
  let actual: string;
  switch (assertion.type) {
    case 'status':
      actual = 'str(res.status_code)';
      break;
    case 'text':
      actual = 'body';
      break;
    case 'json':
      if (!assertion.segments) {
        warnings.push({
          field: `${step.field}.assertionPath`,
          message: `The Locust script evaluates JSONPath itself and cannot read ${assertion.path}; the assertion is left out`,
        });
        return [];
      }
      if (assertion.literal) {
        // docs/design.md §4 "JSON literals": the value itself is compared, with its JSON type.
        const literal = assertion.literal;
        const expected =
          literal.kind === 'null'
            ? 'None'
            : literal.kind === 'string'
              ? pyString(literal.value)
              : pyLiteral(literal.value);
        return [
          `actual = _json_first(body, ${pyLiteral(segmentsAsData(assertion.segments))})`,
          `if ${assertion.operator === 'equals' ? 'not ' : ''}_json_equals(actual, ${pyString(literal.kind)}, ${expected}):`,
          `    res.failure(${pyString(`Assertion failed: ${assertion.description}; got `)} + _json_shown(actual))`,
        ];
      }
      actual = `_json_text(body, ${pyLiteral(segmentsAsData(assertion.segments))}) or ""`;
      break;
    case 'xml': {
      const path = elementTreePath(step, assertion.path, 'assertionPath', warnings);
      if (!path) return [];
      actual = `_xml_text(body, ${path}) or ""`;
      break;
    }
  }
  return [
    `actual = ${actual}`,
    `if not _compare(actual, ${pyString(assertion.operator)}, ${pyString(assertion.expected)}):`,
    `    res.failure(${pyString(`Assertion failed: ${assertion.description}; got `)} + repr(actual[:200]))`,
  ];
}

function elementTreePath(
  step: StepModel,
  xpath: string,
  field: string,
  warnings: ScriptWarning[],
): string | undefined {
  try {
    const { path, select } = xpathToElementTree(xpath);
    const mode = typeof select === 'string' ? pyString(select) : pyString(`@${select.attribute}`);
    return `${pyString(path)}, ${mode}`;
  } catch (error) {
    if (!(error instanceof XPathSubsetError)) throw error;
    warnings.push({
      field: `${step.field}.${field}`,
      message: `${error.message}; it is left out of the Locust script`,
    });
    return undefined;
  }
}

function extractionCode(
  step: StepModel,
  extraction: ExtractionModel,
  warnings: ScriptWarning[],
  regexes: string[],
): string[] {
  const target = `self.vars[${pyString(extraction.name)}]`;
  const fromRegex = (pattern: string, group: 'first-group' | 'first-group-or-match'): string[] => {
    regexes.push(pattern);
    return [
      `match = RE_${regexes.length - 1}.search(body)`,
      'if match:',
      group === 'first-group'
        ? `    ${target} = match.group(1) or ""`
        : `    ${target} = (match.group(1) if match.re.groups else match.group(0)) or ""`,
    ];
  };
  switch (extraction.type) {
    case 'json':
      if (!extraction.segments) {
        warnings.push({
          field: `${step.field}.extractValue`,
          message: `The Locust script evaluates JSONPath itself and cannot read ${extraction.path}; the extraction is left out`,
        });
        return [];
      }
      return [
        `extracted = _json_text(body, ${pyLiteral(segmentsAsData(extraction.segments))})`,
        'if extracted is not None:',
        `    ${target} = extracted`,
      ];
    case 'regex':
      return fromRegex(extraction.pattern, 'first-group-or-match');
    case 'text':
      if (extraction.boundaries.kind === 'whole-body') return ['if res.status_code:', `    ${target} = body`];
      // Python's re reads the Perl-style escapes of escapeOroRegex (a backslash before any punctuation).
      return fromRegex(textExtractionPattern(extraction.boundaries, escapeOroRegex), 'first-group');
    case 'xml': {
      const path = elementTreePath(step, extraction.path, 'extractValue', warnings);
      if (!path) return [];
      return [
        `extracted = _xml_text(body, ${path})`,
        'if extracted is not None:',
        `    ${target} = extracted`,
      ];
    }
  }
}

const OAUTH_METHOD = [
  '    def oauth_token(self, i):',
  '        """The client-credentials token of OAUTH_CLIENTS[i], fetched once per user; None if that failed."""',
  '        if i in self.oauth_tokens:',
  '            return self.oauth_tokens[i]',
  '        client = OAUTH_CLIENTS[i]',
  '        form = {"grant_type": "client_credentials", "client_id": client["client_id"], "client_secret": client["client_secret"]}',
  '        if client["scope"]:',
  '            form["scope"] = client["scope"]',
  '        with self.client.post(client["token_url"], data=form, name="OAuth2 token", allow_redirects=False, catch_response=True) as res:',
  '            try:',
  '                token = res.json().get("access_token")',
  '            except ValueError:',
  '                token = None',
  '            if not isinstance(token, str):',
  '                res.failure("no access_token in the token response")',
  '                return None',
  '        self.oauth_tokens[i] = token',
  '        return token',
];

const HTTP_ERROR_HELPER = [
  'def _http_error(res, body):',
  '    """An answer with status >= 400 in the engine\'s words: "HTTP 500 Internal Server Error: <start of the body>"."""',
  '    snippet = " ".join(body.split())',
  `    if len(snippet) > ${ERROR_BODY_SNIPPET_CHARS}:`,
  `        snippet = snippet[:${ERROR_BODY_SNIPPET_CHARS}] + "\\u2026"`,
  '    text = "HTTP %d" % res.status_code',
  '    if res.reason:',
  '        text += " " + str(res.reason)',
  '    return text + (": " + snippet if snippet else "")',
];

const COMPARE_HELPER = [
  'def _compare(actual, op, expected):',
  '    """The plan\'s assertion operators."""',
  '    if op == "equals":',
  '        return actual == expected',
  '    if op == "not_equals":',
  '        return actual != expected',
  '    if op == "contains":',
  '        return expected in actual',
  '    try:',
  '        return re.search(expected, actual) is not None',
  '    except re.error:',
  '        return False  # a pattern Python cannot read fails this assertion, not the whole iteration',
];

const JSON_HELPER = [
  '_MISSING = object()',
  '',
  '',
  'def _json_first(body, path):',
  '    """First match of a JSONPath given as segments ["k", name] ["i", n] ["*"] ["..", name]; _MISSING',
  '    when the body is not JSON or nothing matches."""',
  '    try:',
  '        values = [json.loads(body)]',
  '    except ValueError:',
  '        return _MISSING',
  '    for segment in path:',
  '        found = []',
  '        for value in values:',
  '            if segment[0] == "..":',
  '                _descendants(value, segment[1], found)',
  '            elif segment[0] == "*":',
  '                if isinstance(value, dict):',
  '                    found.extend(value.values())',
  '                elif isinstance(value, list):',
  '                    found.extend(value)',
  '            elif segment[0] == "i":',
  '                if isinstance(value, list) and -len(value) <= segment[1] < len(value):',
  '                    found.append(value[segment[1]])',
  '            elif isinstance(value, dict) and segment[1] in value:',
  '                found.append(value[segment[1]])',
  '        values = found',
  '    if not values:',
  '        return _MISSING',
  '    return values[0]',
  '',
  '',
  'def _json_text(body, path):',
  '    """The first match as text: a string as is, anything else as JSON; None when nothing matches."""',
  '    first = _json_first(body, path)',
  '    if first is _MISSING:',
  '        return None',
  '    return first if isinstance(first, str) else json.dumps(first, separators=(",", ":"), ensure_ascii=False)',
  '',
  '',
  'def _descendants(value, key, found):',
  '    if isinstance(value, dict):',
  '        if key in value:',
  '            found.append(value[key])',
  '        for child in value.values():',
  '            _descendants(child, key, found)',
  '    elif isinstance(value, list):',
  '        for child in value:',
  '            _descendants(child, key, found)',
];

const JSON_LITERAL_HELPER = [
  'def _json_equals(value, kind, expected):',
  '    """Whether a JSON value equals an expected JSON literal (AnybodyQA docs/design.md §4 "JSON literals"):',
  '    a string only a string, a number a number of that value, true/false/null only themselves."""',
  '    if kind == "null":',
  '        return value is None',
  '    if kind == "string":',
  '        return isinstance(value, str) and value == expected',
  '    if kind == "boolean":',
  '        return isinstance(value, bool) and value == expected',
  '    if isinstance(value, bool) or not isinstance(value, (int, float)):',
  '        return False',
  '    try:',
  '        return float(value) == float(expected)  # as JavaScript reads both: 10 == 10.0',
  '    except OverflowError:',
  '        return False',
  '',
  '',
  'def _json_shown(value):',
  '    return "nothing" if value is _MISSING else json.dumps(value, ensure_ascii=False)[:200]',
];

const XML_HELPER = [
  'def _xml_text(body, path, select):',
  '    """First match of an ElementTree path (the plan\'s XPath, converted): its text content, own text',
  '    ("text") or an attribute ("@name"); None when the body is not XML or nothing matches."""',
  '    try:',
  '        root = ET.fromstring(body)',
  '    except ET.ParseError:',
  '        return None',
  '    document = ET.Element("aqa-document")',
  '    document.append(root)',
  '    found = document.find(path)',
  '    if found is None:',
  '        return None',
  '    if select.startswith("@"):',
  '        return found.get(select[1:])',
  '    if select == "text":',
  '        return found.text or ""',
  '    return "".join(found.itertext())',
];
