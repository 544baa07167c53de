import { type LoadProfile, flowCycle, formatSpan } from '@aqa/plan';
import { scriptFileName } from './file-name';
import { arrivalPool, gracefulStopMs, profileSegments } from './profile-segments';
import { segmentsAsData } from './json-path';
import {
  type GeneratorOptions,
  type AssertionModel,
  type ExtractionModel,
  type FlowModel,
  type GeneratedScript,
  type ScriptModel,
  type ScriptSource,
  type ScriptWarning,
  type StepModel,
  type Value,
  buildScriptModel,
  uniqueWarnings,
  type DataModel,
  dataFileWarnings,
} from './script-model';
import { jsLiteral, jsString } from './serializers/js-literal';
import { captureGroupCount, escapeJsRegex } from './serializers/regex-escape';
import { textExtractionPattern } from './text-extraction';

/**
 * k6 script (k6 ≥ 0.34): constant VUs for the plan's duration (or a load profile's scenario), each VU
 * looping over the steps (docs/design.md §4). Variables live in module scope, which k6 keeps per VU.
 * {{sequence_number,N}} comes from exec.scenario.iterationInTest, the run-wide iteration index, so it is
 * exact across VUs and instances. A failed request (network error or time-out, status ≥ 400, failed
 * assertion) is added to the aqa_errors rate; assertions are also k6 checks. k6 has no XPath, so xml
 * extraction and assertions become warnings. No redirect is followed (k6 follows 10 by default): a 3xx is
 * the answer (docs/adr/0015-target-guard.md "Redirects").
 */
export function planToK6(source: ScriptSource, options: GeneratorOptions = {}): GeneratedScript {
  const { profile } = options;
  const model = buildScriptModel(source);
  const warnings = [...model.warnings];
  const regexes: string[] = [];
  const stepBlocks = model.steps.map((step) => stepCode(step, warnings, regexes, flowOf(model, step)));
  const usesJson = model.steps.some(
    (s) =>
      (s.extraction?.type === 'json' && s.extraction.segments) ||
      (s.assertion?.type === 'json' && s.assertion.segments),
  );
  const usesBasicAtRunTime = model.steps.some((s) => s.basicAuth);
  const usesQuery = model.steps.some((s) => s.query.length > 0);
  const usesCompare = model.steps.some(
    (s) => s.assertion && assertionSupported(s.assertion) && !comparesJsonLiteral(s.assertion),
  );
  const usesJsonLiteral = model.steps.some(
    (s) => s.assertion && assertionSupported(s.assertion) && comparesJsonLiteral(s.assertion),
  );

  const lines: string[] = [
    `// AnybodyQA performance plan ${jsString(model.name)} for k6. Run: k6 run <this file>`,
    profile
      ? '// (the load profile is options.scenarios; --vus and --duration replace it with constant VUs).'
      : '// (the plan sets the VUs and duration; --vus and --duration override them).',
    "import http from 'k6/http';",
    "import { check, group, sleep } from 'k6';",
    "import exec from 'k6/execution';",
    ...(usesBasicAtRunTime ? ["import encoding from 'k6/encoding';"] : []),
    "import { Rate } from 'k6/metrics';",
    ...(model.data.length > 0 ? ["import { SharedArray } from 'k6/data';"] : []),
    '',
    // With a profile the scenario is typed, so @types/k6 checks its executor's fields.
    ...(profile ? ["/** @type {import('k6/options').Options} */"] : []),
    `export const options = {`,
    ...(profile
      ? k6Scenarios(profile)
      : [`  vus: ${model.users},`, `  duration: ${jsString(`${model.durationS}s`)},`]),
    '  // No redirect is followed: a 3xx is the answer (every request also says redirects: 0).',
    '  maxRedirects: 0,',
    '};',
    '',
    "// Requests that failed by the plan's rules: network error or time-out, status >= 400, or a failed assertion.",
    "const errors = new Rate('aqa_errors');",
    '',
    '/** Values this VU extracted; k6 gives every VU its own module scope. @type {Record<string, string>} */',
    'const vars = {};',
    '',
    '/**',
    ' * A variable, or the template as written while the VU has no value for it.',
    ' * @param {string} name @param {string} raw @returns {string}',
    ' */',
    'function v(name, raw) {',
    '  return Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : raw;',
    '}',
    '',
    '/** @param {import("k6/http").RefinedResponse<import("k6/http").ResponseType | undefined>} res @returns {string} */',
    'function bodyText(res) {',
    "  return typeof res.body === 'string' ? res.body : '';",
    '}',
  ];
  if (model.data.length > 0) lines.push('', ...k6DataArrays(model.data));
  if (usesQuery) lines.push('', ...QUERY_HELPER);
  if (usesCompare) lines.push('', ...COMPARE_HELPER);
  if (usesJson) lines.push('', ...JSON_HELPER);
  if (usesJsonLiteral) lines.push('', ...JSON_LITERAL_HELPER);
  if (model.oauthClients.length > 0) lines.push('', ...oauthCode(model));
  if (regexes.length > 0) {
    lines.push('', '// Patterns of the regex and text extractions, compiled once per VU.');
    regexes.forEach((pattern, i) => lines.push(`const RE_${i} = new RegExp(${jsString(pattern)});`));
  }

  if (model.flows.length > 0) lines.push('', ...flowCycleCode(model.flows));

  lines.push('', 'export default function () {');
  for (const { max, ident } of model.sequences) {
    lines.push(
      `  // {{sequence_number,${max}}}: the run-wide iteration index, so 1..${max} is shared by all VUs and wraps after ${max}.`,
      `  const ${ident} = (exec.scenario.iterationInTest % ${max}) + 1;`,
    );
  }
  model.data.forEach((data, k) => lines.push(...k6DataRow(data, k, warnings)));
  if (model.flows.length === 0) {
    for (const block of stepBlocks) lines.push('', ...block.map((l) => `  ${l}`));
  } else {
    lines.push('  const flow = FLOW_CYCLE[exec.scenario.iterationInTest % FLOW_CYCLE.length];');
    model.flows.forEach((flow, f) => {
      lines.push(
        `  ${f === 0 ? '' : '} else '}if (flow === ${f}) {`,
        `    // Flow ${jsString(flow.name)}, weight ${flow.weight}: its calls in plan order.`,
      );
      flow.steps.forEach((step, k) =>
        lines.push(...(k === 0 ? [] : ['']), ...stepBlocks[step.index]!.map((l) => `    ${l}`)),
      );
    });
    lines.push('  }');
  }
  lines.push('}', '');

  warnings.push(...dataFileWarnings(model.data, k6DataFile));
  return {
    files: [
      { name: scriptFileName('k6', source.name), content: lines.join('\n') },
      ...(options.dataFiles === false
        ? []
        : model.data.map((data) => ({ name: k6DataFile(data), content: JSON.stringify(data.rows()) }))),
    ],
    warnings: uniqueWarnings(warnings),
  };
}

/** k6 reads a data source's rows as JSON (no CSV parser in k6 itself): the same rows, one array each. */
function k6DataFile(data: DataModel): string {
  return data.file.replace(/\.csv$/, '.json');
}

/** The data sources' rows, read once in the init context and shared by every VU without a copy. */
function k6DataArrays(data: readonly DataModel[]): string[] {
  return data.flatMap((d, k) => [
    `// Test data ${JSON.stringify(d.path)} (docs/adr/0027-load-profiles.md "Test data"): ${d.rowCount} rows.`,
    `const DATA_${k + 1} = new SharedArray(${jsString(d.file)}, () => JSON.parse(open(${jsString(`./${k6DataFile(d)}`)})));`,
  ]);
}

/**
 * The iteration's row of a data source into `vars`: share all takes the test-wide iteration index,
 * share user this VU's own; past the end a looping source starts over and another ends the test.
 */
function k6DataRow(data: DataModel, k: number, warnings: ScriptWarning[]): string[] {
  const n = k + 1;
  const index = data.share === 'all' ? 'exec.scenario.iterationInTest' : 'exec.vu.iterationInScenario';
  const lines = [`  const dataIndex${n} = ${index};`];
  if (!data.loop) {
    if (data.share === 'user')
      warnings.push({
        field: `data_sources[${k}].loop`,
        message:
          'k6 cannot end one VU alone: the test ends when the first VU has read every row (the built-in engine ends each user in turn)',
      });
    const said = `test data ${JSON.stringify(data.path)} ran out after ${data.rowCount} rows (loop: false)`;
    lines.push(
      `  if (dataIndex${n} >= DATA_${n}.length) {`,
      `    exec.test.abort(${jsString(said)});`,
      '    return;',
      '  }',
    );
  }
  lines.push(`  const row${n} = DATA_${n}[dataIndex${n} % DATA_${n}.length];`);
  data.columns.forEach((c, i) => lines.push(`  vars[${jsString(c.name)}] = row${n}[${i}];`));
  return lines;
}

/**
 * A load profile as one k6 scenario (docs/adr/0027-load-profiles.md "7. Where a profile goes"):
 * `ramping-vus` for the users model, `ramping-arrival-rate` for arrival_rate — the executors whose stages
 * the profile's stages are. k6 takes whole arrival rates per timeUnit, so a rate with decimals (steps of
 * 0.001/s) is written per 10, 100 or 1000 s. The pool is pre-allocated: the engine's pool exists from the
 * start too.
 */
function k6Scenarios(profile: LoadProfile): string[] {
  const segments = profileSegments(profile);
  const graceful = jsString(formatSpan(gracefulStopMs(profile)));
  const stages = (scale: number) =>
    segments.map(
      (s) =>
        `        { duration: ${jsString(formatSpan(s.toMs - s.fromMs))}, target: ${Math.round(s.to * scale)} },`,
    );
  const head = ['  scenarios: {', '    plan: {'];
  const tail = ['      ],', '    },', '  },'];
  if (profile.model === 'users') {
    return [
      ...head,
      `      executor: ${jsString('ramping-vus')},`,
      `      startVUs: ${profile.start},`,
      `      gracefulRampDown: ${graceful},`,
      `      gracefulStop: ${graceful},`,
      '      stages: [',
      ...stages(1),
      ...tail,
    ];
  }
  const rates = [profile.start, ...segments.map((s) => s.to)];
  const scale =
    [1, 10, 100, 1000].find((f) => rates.every((r) => Number.isInteger(Math.round(r * f * 1e6) / 1e6))) ??
    1000;
  const pool = arrivalPool(profile);
  return [
    ...head,
    `      executor: ${jsString('ramping-arrival-rate')},`,
    `      startRate: ${Math.round(profile.start * scale)},`,
    `      timeUnit: ${jsString(`${scale}s`)},`,
    `      preAllocatedVUs: ${pool},`,
    `      maxVUs: ${pool},`,
    `      gracefulStop: ${graceful},`,
    '      stages: [',
    ...stages(scale),
    ...tail,
  ];
}

/** A value as a JavaScript string expression. */
function jsValue(value: Value): string {
  if (value.length === 0) return '""';
  return value
    .map((part) =>
      part.kind === 'text'
        ? jsString(part.text)
        : part.kind === 'var'
          ? `v(${jsString(part.name)}, ${jsString(part.raw)})`
          : `String(${part.ident})`,
    )
    .join(' + ');
}

function assertionSupported(assertion: AssertionModel): boolean {
  if (assertion.type === 'xml') return false;
  if (assertion.type === 'json') return assertion.segments !== undefined;
  return true;
}

/** The flow a step belongs to, in a plan with flows. */
function flowOf(model: ScriptModel, step: StepModel): string | undefined {
  return model.flows.find((f) => f.steps.includes(step))?.name;
}

/**
 * Flows with weights (docs/adr/0027-load-profiles.md "Flows"): the cycle the built-in engine runs
 * (@aqa/plan's flowCycle, a smooth weighted round robin), written out as data over k6's run-wide
 * iteration index, so every whole cycle of iterations is split exactly by the weights across VUs and
 * instances, and the script cannot drift from the engine's arithmetic.
 */
function flowCycleCode(flows: readonly FlowModel[]): string[] {
  const cycle = [...flowCycle(flows.map((f) => f.weight))];
  const rows: string[] = [];
  for (let i = 0; i < cycle.length; i += 40) rows.push(`  ${cycle.slice(i, i + 40).join(', ')},`);
  return [
    `// Flows: run-wide iteration n runs flow FLOW_CYCLE[n % FLOW_CYCLE.length]: ${flows.map((f, i) => `${i} ${f.name} (${f.weight})`).join(', ')}.`,
    '// A smooth weighted round robin: each flow holds exactly its weight of every cycle, spread evenly.',
    'const FLOW_CYCLE = [',
    ...rows,
    '];',
  ];
}

function stepCode(
  step: StepModel,
  warnings: ScriptWarning[],
  regexes: string[],
  flow: string | undefined,
): string[] {
  const inner: string[] = [];
  const url = step.query.length
    ? `withQuery(${jsValue(step.url)}, [${step.query.map((q) => `[${jsString(q.name)}, ${jsValue(q.value)}]`).join(', ')}])`
    : jsValue(step.url);
  inner.push(
    '/** @type {Record<string, string>} */',
    `const headers = {${step.headers.map((h) => ` ${jsString(h.name)}: ${jsValue(h.value)}`).join(',')}${step.headers.length ? ' ' : ''}};`,
  );
  if (step.oauthClient !== undefined) {
    inner.push(
      `const accessToken = oauthToken(${step.oauthClient});`,
      "if (accessToken !== undefined) headers['Authorization'] = 'Bearer ' + accessToken;",
    );
  }
  if (step.basicAuth) {
    inner.push(
      `headers['Authorization'] = 'Basic ' + encoding.b64encode(${jsValue(step.basicAuth.username)} + ':' + ${jsValue(step.basicAuth.password)});`,
    );
  }
  inner.push(
    `const res = http.request(${jsString(step.method)}, ${url}, ${step.body ? jsValue(step.body) : 'null'}, {`,
    '  headers,',
    `  timeout: ${jsString(`${step.timeoutMs}ms`)},`,
    // A request's own redirects win over maxRedirects from the environment or the command line.
    '  redirects: 0,',
    `  tags: { name: ${jsString(step.label)}${flow === undefined ? '' : `, flow: ${jsString(flow)}`} },`,
    '});',
  );
  const assertion = step.assertion ? assertionCode(step, step.assertion, warnings) : [];
  const extraction = step.extraction ? extractionCode(step, step.extraction, warnings, regexes) : [];
  if ([...assertion, ...extraction].some((line) => /\bbody\b/.test(line)))
    inner.push('const body = bodyText(res);');
  inner.push(
    '// error_code is 0 unless the request itself failed (refused, DNS, time-out, TLS).',
    `${assertion.length > 0 ? 'let' : 'const'} ok = res.error_code === 0 && res.status < 400;`,
    ...assertion,
    'errors.add(!ok);',
    ...extraction,
  );

  const group = [`group(${jsString(step.label)}, () => {`, ...inner.map((l) => `  ${l}`), '});'];
  if (step.thinkTimeMs > 0) group.push(`sleep(${step.thinkTimeMs / 1000});`);
  const block = [`// ${step.field}`];
  if (step.ratePercent < 100) {
    block.push(
      `// transactionRate: this step runs in ${step.ratePercent}% of the iterations, at random.`,
      `if (Math.random() * 100 < ${step.ratePercent}) {`,
      ...group.map((l) => `  ${l}`),
      '}',
    );
  } else block.push(...group);
  return block;
}

function assertionCode(step: StepModel, assertion: AssertionModel, warnings: ScriptWarning[]): string[] {
  if (assertion.operator === 'regex' && captureGroupCount(assertion.expected) === undefined) {
    warnings.push({
      field: `${step.field}.assertionValue`,
      message: `k6 (JavaScript) cannot read the regular expression ${assertion.expected}; the assertion is left out`,
    });
    return [];
  }
  let actual: string;
  switch (assertion.type) {
    case 'status':
      actual = 'String(res.status)';
      break;
    case 'text':
      actual = 'body';
      break;
    case 'json':
      if (!assertion.segments) {
        warnings.push({
          field: `${step.field}.assertionPath`,
          message: `k6 evaluates JSONPath in the script, which cannot read ${assertion.path}; the assertion is left out`,
        });
        return [];
      }
      if (assertion.literal) {
        // docs/design.md §4 "JSON literals": the value itself is compared, with its JSON type.
        const holds = assertion.operator === 'equals' ? '' : '!';
        return [
          `const actual = jsonFirst(body, ${jsLiteral(segmentsAsData(assertion.segments))});`,
          `ok = check(res, { ${jsString(`${step.label}: ${assertion.description}`)}: () => ${holds}jsonEquals(actual, ${jsLiteral(assertion.literal)}) }) && ok;`,
        ];
      }
      actual = `jsonText(body, ${jsLiteral(segmentsAsData(assertion.segments))}) ?? ''`;
      break;
    case 'xml':
      warnings.push({
        field: `${step.field}.assertionType`,
        message: 'k6 has no XML or XPath support, so the xml assertion is left out',
      });
      return [];
  }
  return [
    `const actual = ${actual};`,
    `ok = check(res, { ${jsString(`${step.label}: ${assertion.description}`)}: () => compare(actual, ${jsString(assertion.operator)}, ${jsString(assertion.expected)}) }) && ok;`,
  ];
}

function extractionCode(
  step: StepModel,
  extraction: ExtractionModel,
  warnings: ScriptWarning[],
  regexes: string[],
): string[] {
  const target = `vars[${jsString(extraction.name)}]`;
  const fromRegex = (pattern: string): string[] => {
    const groups = captureGroupCount(pattern);
    if (groups === undefined) {
      warnings.push({
        field: `${step.field}.extractValue`,
        message: `k6 (JavaScript) cannot read the regular expression ${pattern}; the extraction is left out`,
      });
      return [];
    }
    regexes.push(pattern);
    return [
      `const match = RE_${regexes.length - 1}.exec(body);`,
      `if (match) ${target} = match[${groups > 0 ? 1 : 0}] ?? '';`,
    ];
  };
  switch (extraction.type) {
    case 'json':
      if (!extraction.segments) {
        warnings.push({
          field: `${step.field}.extractValue`,
          message: `k6 evaluates JSONPath in the script, which cannot read ${extraction.path}; the extraction is left out`,
        });
        return [];
      }
      return [
        `const extracted = jsonText(body, ${jsLiteral(segmentsAsData(extraction.segments))});`,
        `if (extracted !== undefined) ${target} = extracted;`,
      ];
    case 'regex':
      return fromRegex(extraction.pattern);
    case 'text':
      if (extraction.boundaries.kind === 'whole-body') return [`if (res.error_code === 0) ${target} = body;`];
      return fromRegex(textExtractionPattern(extraction.boundaries, escapeJsRegex));
    case 'xml':
      warnings.push({
        field: `${step.field}.extractType`,
        message: 'k6 has no XML or XPath support, so the xml extraction is left out',
      });
      return [];
  }
}

function oauthCode(model: ScriptModel): string[] {
  const clients = model.oauthClients.map((c) => ({
    tokenUrl: c.tokenUrl,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    scope: c.scope,
  }));
  return [
    '// OAuth2 client-credentials clients of the plan; each VU fetches a token before its first use.',
    `const OAUTH_CLIENTS = ${jsLiteral(clients)};`,
    '/** @type {Record<number, string>} */',
    'const oauthTokens = {};',
    '',
    '/** @param {number} i @returns {string | undefined} */',
    'function oauthToken(i) {',
    '  if (oauthTokens[i] !== undefined) return oauthTokens[i];',
    '  const client = OAUTH_CLIENTS[i];',
    '  /** @type {Record<string, string>} */',
    "  const form = { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret };",
    "  if (client.scope !== '') form.scope = client.scope;",
    "  const res = http.post(client.tokenUrl, form, { redirects: 0, tags: { name: 'OAuth2 token' } });",
    '  let token;',
    '  try {',
    '    token = JSON.parse(bodyText(res)).access_token;',
    '  } catch (e) {',
    '    token = undefined;',
    '  }',
    "  errors.add(res.status >= 400 || typeof token !== 'string');",
    "  if (typeof token !== 'string') return undefined;",
    '  oauthTokens[i] = token;',
    '  return token;',
    '}',
  ];
}

const QUERY_HELPER = [
  '/** @param {string} url @param {Array<[string, string]>} pairs @returns {string} */',
  'function withQuery(url, pairs) {',
  "  const query = pairs.map(([key, value]) => encodeURIComponent(key) + '=' + encodeURIComponent(value)).join('&');",
  "  return url + (url.includes('?') ? '&' : '?') + query;",
  '}',
];

const COMPARE_HELPER = [
  "/** The plan's assertion operators (AnybodyQA docs/design.md §4). @param {string} actual @param {string} op @param {string} expected */",
  'function compare(actual, op, expected) {',
  "  if (op === 'equals') return actual === expected;",
  "  if (op === 'not_equals') return actual !== expected;",
  "  if (op === 'contains') return actual.includes(expected);",
  '  return new RegExp(expected).test(actual);',
  '}',
];

const JSON_LITERAL_HELPER = [
  '/**',
  ' * Whether a JSON value equals an expected JSON literal (AnybodyQA docs/design.md §4 "JSON literals"):',
  ' * a string only a string, a number a number of that value, true/false/null only themselves.',
  ' * @param {unknown} value @param {{ kind: string, value?: unknown }} expected @returns {boolean}',
  ' */',
  'function jsonEquals(value, expected) {',
  "  if (expected.kind === 'null') return value === null;",
  '  return typeof value === expected.kind && value === expected.value;',
  '}',
];

/** Whether a json assertion compares the value with a JSON literal (docs/design.md §4 "JSON literals"). */
function comparesJsonLiteral(assertion: AssertionModel): boolean {
  return assertion.type === 'json' && assertion.literal !== undefined;
}

const JSON_HELPER = [
  '/**',
  ' * The first match of a JSONPath given as segments ["k",name] ["i",index] ["*"] ["..",name]; jsonText',
  ' * gives it as text (a string as is, anything else as JSON). Undefined when the body is not JSON or',
  ' * nothing matches.',
  ' * @param {string} body @param {Array<Array<string | number>>} path @returns {unknown}',
  ' */',
  'function jsonFirst(body, path) {',
  '  /** @type {unknown[]} */',
  '  let values;',
  '  try {',
  '    values = [JSON.parse(body)];',
  '  } catch (e) {',
  '    return undefined;',
  '  }',
  '  for (const [op, arg] of path) {',
  '    /** @type {unknown[]} */',
  '    const next = [];',
  '    for (const value of values) {',
  "      if (op === '..') collectDescendants(value, String(arg), next);",
  "      else if (op === '*') {",
  "        if (value !== null && typeof value === 'object') next.push(...Object.values(value));",
  "      } else if (op === 'i' && Array.isArray(value)) {",
  '        const index = Number(arg) < 0 ? value.length + Number(arg) : Number(arg);',
  '        if (index >= 0 && index < value.length) next.push(value[index]);',
  "      } else if (op === 'k' && value !== null && typeof value === 'object' && !Array.isArray(value)) {",
  '        if (Object.prototype.hasOwnProperty.call(value, String(arg))) {',
  '          next.push(/** @type {Record<string, unknown>} */ (value)[String(arg)]);',
  '        }',
  '      }',
  '    }',
  '    values = next;',
  '  }',
  '  return values[0];',
  '}',
  '',
  '/** @param {string} body @param {Array<Array<string | number>>} path @returns {string | undefined} */',
  'function jsonText(body, path) {',
  '  const first = jsonFirst(body, path);',
  '  if (first === undefined) return undefined;',
  "  return typeof first === 'string' ? first : JSON.stringify(first);",
  '}',
  '',
  '/** @param {unknown} value @param {string} key @param {unknown[]} out */',
  'function collectDescendants(value, key, out) {',
  "  if (value === null || typeof value !== 'object') return;",
  '  if (!Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, key)) {',
  '    out.push(/** @type {Record<string, unknown>} */ (value)[key]);',
  '  }',
  '  for (const child of Object.values(value)) collectDescendants(child, key, out);',
  '}',
];
