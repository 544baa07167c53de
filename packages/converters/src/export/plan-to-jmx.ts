import { ERROR_BODY_SNIPPET_CHARS, flowCycle, type LoadProfile } from '@aqa/plan';
import { scriptFileName } from './file-name';
import { jsonLiteralText } from './json-literal-text';
import { base64Utf8 } from './serializers/base64';
import {
  type GeneratorOptions,
  type AssertionModel,
  type ExtractionModel,
  type FlowModel,
  type GeneratedScript,
  type OAuthClientModel,
  type ScriptModel,
  type ScriptSource,
  type ScriptWarning,
  type StepModel,
  type DataModel,
  buildScriptModel,
  dataFiles,
  dataFileWarnings,
  uniqueWarnings,
  valueAsWritten,
} from './script-model';
import {
  type JmeterPiece,
  jmeterPieces,
  jmeterQueryPieces,
  jmeterString,
  jmeterText,
  jmeterValue,
} from './serializers/jmeter-text';
import { JSON_REGEX_PATHS, JSON_REGEX_PREFIX_CHARS, jsonPathRegexes } from './json-path-regex';
import { jmeterHasJsonExtractor } from './jmeter-versions';
import { arrivalPool, onWholeSeconds, rateSteps, userBlocks } from './profile-segments';
import { captureGroupCount, escapeOroRegex } from './serializers/regex-escape';
import { type XmlElement, el, hasNonXmlCharacters, renderXmlDocument } from './serializers/xml-writer';
import { textExtractionPattern } from './text-extraction';
import { splitOrigin } from './url-parts';

/**
 * JMeter test plan (.jmx), written for JMeter 5.x unless `options.jmeterVersion` names an older JMeter.
 * One thread group of the plan's users for its duration (both overridable: -Jaqa.users=N
 * -Jaqa.duration=SECONDS), looping over the steps (docs/design.md §4):
 *   {{sequence_number,N}}  a Counter config element per N, shared by all threads, one step per iteration;
 *   transactionRate        a Throughput Controller in percent mode (JMeter spreads the runs evenly over
 *                          the iterations rather than drawing them at random, same share);
 *   extraction             JSON Extractor (JSONPath), Regular Expression Extractor (regex, text), XPath
 *                          Extractor (xml; the XPath 1.0 extractor, which every JMeter version has);
 *   assertion              Response Assertion, on the response code or body, or on a variable that a JSON
 *                          or XPath extractor filled, so every operator means the same as in the engine;
 *   timeout                connect and response time-outs plus a Duration Assertion (JMeter's time-outs
 *                          are per read, the assertion bounds the whole request);
 *   think time             a Flow Control Action that pauses after the step;
 *   OAuth2                 a Once Only Controller per thread that posts the client credentials and keeps
 *                          access_token (read by a regular expression, so it runs in any JMeter version);
 *   redirects              never followed: a 3xx is the answer that assertions and extractions read.
 * Only the JSON Extractor needs JMeter 3 or later (jmeter-versions.ts): for an older JMeter a JSONPath
 * is written as Regular Expression Extractors where it can be (json-path-regex.ts), and the steps whose
 * path cannot be are listed in `unsupported` (the server refuses to run the plan in that JMeter).
 */
export interface JmxOptions extends GeneratorOptions {
  /** The JMeter that will run the script, as it reports its version ("2.13"); absent: JMeter 5. */
  jmeterVersion?: string | null | undefined;
  /**
   * For a run the server reads (docs/reference/02-running.md §3 "Errors by kind"): every step keeps the
   * first bytes of an answer with status ≥ 400 in the variable aqa_error_body, which the run's JTL
   * records (-Jsample_variables=aqa_error_body).
   */
  errorBodies?: boolean | undefined;
  /**
   * The load over time (docs/adr/0027-load-profiles.md "7. Where a profile goes"): written as thread
   * groups with a scheduler instead of the one group of the plan's users (profileThreadGroups);
   * -Jaqa.users and -Jaqa.duration then change nothing.
   */
  profile?: LoadProfile | undefined;
}

/** The variable that holds the start of an error answer's body (JmxOptions.errorBodies). */
export const JMETER_ERROR_BODY_VARIABLE = 'aqa_error_body';

/** What one generation writes for: the version's abilities, and the lists to fill. */
interface JmxContext {
  version: string | null;
  jsonExtractor: boolean;
  errorBodies: boolean;
  warnings: ScriptWarning[];
  unsupported: ScriptWarning[];
}

export function planToJmx(source: ScriptSource, options: JmxOptions = {}): GeneratedScript {
  const model = buildScriptModel(source);
  const warnings = [...model.warnings];
  const version = options.jmeterVersion?.trim() || null;
  const ctx: JmxContext = {
    version,
    jsonExtractor: jmeterHasJsonExtractor(version),
    errorBodies: options.errorBodies === true,
    warnings,
    unsupported: [],
  };
  const threadGroupChildren: XmlElement[] = [];

  for (const { max, ident } of model.sequences) {
    threadGroupChildren.push(counter(max, ident), hashTree());
  }
  if (model.oauthClients.length > 0) {
    threadGroupChildren.push(
      element('OnceOnlyController', 'OnceOnlyControllerGui', 'OAuth2 tokens (once per user)'),
      hashTree(model.oauthClients.flatMap((client) => oauthSampler(client))),
    );
  }
  if (model.flows.length === 0) {
    for (const step of model.steps) threadGroupChildren.push(...stepElements(step, ctx));
  } else threadGroupChildren.push(...flowElements(model.flows, ctx));

  for (const step of model.steps) {
    for (const part of [...step.url, ...(step.body ?? []), ...step.headers.flatMap((h) => h.value)]) {
      if (part.kind === 'text' && hasNonXmlCharacters(part.text)) {
        warnings.push({
          field: step.field,
          message: 'Control characters that XML cannot hold are written as U+FFFD in the JMX',
        });
      }
    }
  }

  const groups = options.profile
    ? profileThreadGroups(options.profile, threadGroupChildren, warnings)
    : [threadGroup(model), hashTree(threadGroupChildren)];
  // At the test plan's level, so every thread group of a profile reads the same rows.
  const dataSets = model.data.flatMap((data) => [csvDataSet(data), hashTree()]);
  const root = el('jmeterTestPlan', { version: '1.2', properties: '5.0', jmeter: '5.6.3' }, [
    hashTree([testPlan(model), hashTree([...dataSets, ...groups])]),
  ]);
  warnings.push(...dataFileWarnings(model.data));
  return {
    files: [
      { name: scriptFileName('jmeter', source.name), content: renderXmlDocument(root) },
      ...dataFiles(model.data, options),
    ],
    warnings: uniqueWarnings(warnings),
    unsupported: uniqueWarnings(ctx.unsupported),
  };
}

const stringProp = (name: string, value: string) => el('stringProp', { name }, value);
const boolProp = (name: string, value: boolean) => el('boolProp', { name }, String(value));
const intProp = (name: string, value: number) => el('intProp', { name }, String(value));
const hashTree = (children: XmlElement[] = []) => el('hashTree', {}, children);

function element(testclass: string, guiclass: string, name: string, children: XmlElement[] = []): XmlElement {
  return el(testclass, { guiclass, testclass, testname: jmeterText(name), enabled: 'true' }, children);
}

/**
 * A data source as JMeter's CSV Data Set Config (2.13 and later): the columns named in the element (the
 * file has no header), quoted data on; share all → shareMode.all, user → shareMode.thread; loop false →
 * no recycling and the thread stops at the end of the file (docs/adr/0027-load-profiles.md "Test data").
 */
function csvDataSet(data: DataModel): XmlElement {
  return el(
    'CSVDataSet',
    { guiclass: 'TestBeanGUI', testclass: 'CSVDataSet', testname: jmeterText(data.path), enabled: 'true' },
    [
      stringProp('delimiter', ','),
      stringProp('fileEncoding', 'UTF-8'),
      stringProp('filename', data.file),
      boolProp('quotedData', true),
      boolProp('recycle', data.loop),
      stringProp('shareMode', data.share === 'all' ? 'shareMode.all' : 'shareMode.thread'),
      boolProp('stopThread', !data.loop),
      stringProp('variableNames', data.columns.map((c) => c.ident).join(',')),
    ],
  );
}

function testPlan(model: ScriptModel): XmlElement {
  return element('TestPlan', 'TestPlanGui', model.name, [
    stringProp('TestPlan.comments', 'Generated by AnybodyQA from a performance plan.'),
    boolProp('TestPlan.functional_mode', false),
    boolProp('TestPlan.serialize_threadgroups', false),
    el(
      'elementProp',
      {
        name: 'TestPlan.user_defined_variables',
        elementType: 'Arguments',
        guiclass: 'ArgumentsPanel',
        testclass: 'Arguments',
        testname: 'User Defined Variables',
        enabled: 'true',
      },
      [el('collectionProp', { name: 'Arguments.arguments' })],
    ),
    stringProp('TestPlan.user_define_classpath', ''),
  ]);
}

function threadGroup(model: ScriptModel): XmlElement {
  return threadGroupElement('Virtual users', {
    threads: `\${__P(aqa.users,${model.users})}`,
    rampS: 0,
    delayS: 0,
    duration: `\${__P(aqa.duration,${model.durationS})}`,
  });
}

function threadGroupElement(
  name: string,
  {
    threads,
    rampS,
    delayS,
    duration,
    delayedStart = false,
  }: { threads: string; rampS: number; delayS: number; duration: string; delayedStart?: boolean },
): XmlElement {
  return element('ThreadGroup', 'ThreadGroupGui', name, [
    // A failed request is counted and the VU goes on with its next step (docs/design.md §4).
    stringProp('ThreadGroup.on_sample_error', 'continue'),
    el(
      'elementProp',
      {
        name: 'ThreadGroup.main_controller',
        elementType: 'LoopController',
        guiclass: 'LoopControlPanel',
        testclass: 'LoopController',
        testname: 'Loop Controller',
        enabled: 'true',
      },
      [boolProp('LoopController.continue_forever', false), stringProp('LoopController.loops', '-1')],
    ),
    stringProp('ThreadGroup.num_threads', threads),
    stringProp('ThreadGroup.ramp_time', String(rampS)),
    boolProp('ThreadGroup.scheduler', true),
    stringProp('ThreadGroup.duration', duration),
    stringProp('ThreadGroup.delay', String(delayS)),
    // Measured in JMeter 2.13: without it a group's ramp-up counts from the test's start and the delay
    // only holds threads back; with it the threads are created after the delay, one per ramp-up step.
    ...(delayedStart ? [boolProp('ThreadGroup.delayedStart', true)] : []),
    boolProp('ThreadGroup.same_user_on_next_iteration', true),
  ]);
}

/** The most threads the open model's groups may hold together; past it the rate steps grow longer. */
export const JMETER_PROFILE_MAX_THREADS = 10_000;

/**
 * A load profile as JMeter 2.13 can run it (docs/adr/0027-load-profiles.md
 * "7. Where a profile goes"), with thread groups that each run the plan's calls (`calls`) on a scheduler. JMeter reads
 * delay, ramp-up and duration in whole seconds, so a user starts and leaves within a second of the
 * planned line.
 * - users: one group per block of users that join on one rising segment and leave together
 *   (userBlocks): threads = the block, delay = its first start, ramp-up = threads × the spacing of the
 *   starts (JMeter starts thread i at delay + i · ramp-up / threads), duration = until the block leaves.
 *   A falling ramp leaves one second at a time, so its users are blocks of the users leaving in that
 *   second. JMeter stops a thread at its group's end after the current sample, not after the iteration
 *   within graceful_stop as the engine does.
 * - arrival_rate: one group per rate step (rateSteps: flat stages whole, ramps in steps of one second),
 *   each of the pool's threads (max_users; no more than the step's iterations), with a Constant
 *   Throughput Timer shared by the group's active threads on a pause of 0 ms that starts every
 *   iteration, so the timer paces iterations, not requests. JMeter 2.13 has no Precise Throughput
 *   Timer (4.0): the Constant Throughput Timer spaces iterations evenly at the step's rate (per minute
 *   in the JMX) and never drops one; when every thread is busy the iterations start late instead,
 *   where the engine counts them as dropped. So many steps that the groups would hold more than
 *   JMETER_PROFILE_MAX_THREADS threads are made longer.
 */
function profileThreadGroups(
  profile: LoadProfile,
  calls: XmlElement[],
  warnings: ScriptWarning[],
): XmlElement[] {
  if (!onWholeSeconds(profile)) {
    warnings.push({
      field: 'load_profile.stages',
      message:
        'JMeter reads delays, ramp-ups and durations in whole seconds: the stages that do not end on a whole second are rounded to one',
    });
  }
  warnings.push({
    field: 'load_profile.graceful_stop',
    message:
      "JMeter has no graceful stop: a user that leaves stops after its current request, not after its iteration within the profile's graceful stop",
  });
  const s = (ms: number) => Math.round(ms / 1000);
  const groups: XmlElement[] = [];
  if (profile.model === 'users') {
    for (const block of userBlocks(profile)) {
      const delayS = s(block.firstStartMs);
      const durationS = Math.max(1, s(block.endMs) - delayS);
      const rampS = s(block.spacingMs * block.users);
      groups.push(
        threadGroupElement(`Users from ${delayS}s to ${delayS + durationS}s`, {
          threads: String(block.users),
          rampS,
          delayS,
          duration: String(durationS),
          delayedStart: true,
        }),
        hashTree(calls),
      );
    }
    return groups;
  }
  const pool = arrivalPool(profile);
  warnings.push({
    field: 'load_profile.model',
    message: `JMeter 2.13 has no arrival-rate thread group: a Constant Throughput Timer paces each step's threads (at most ${pool}), ramps in steps of a second; an iteration that finds every thread busy starts late instead of being dropped and counted as the engine does`,
  });
  let stepMs = 1000;
  while (rateSteps(profile, stepMs).filter((st) => st.rate > 0).length * pool > JMETER_PROFILE_MAX_THREADS) {
    stepMs += 1000;
  }
  if (stepMs > 1000) {
    warnings.push({
      field: 'load_profile.stages',
      message: `The ramps of the arrival rate are written in steps of ${stepMs / 1000} s so that JMeter holds at most ${JMETER_PROFILE_MAX_THREADS} threads (${pool} per step)`,
    });
  }
  for (const step of rateSteps(profile, stepMs)) {
    if (step.rate <= 0) continue;
    const delayS = s(step.fromMs);
    const durationS = s(step.toMs) - delayS;
    if (durationS <= 0) continue;
    const pacer = [
      element('TestAction', 'TestActionGui', 'iteration start', [
        intProp('ActionProcessor.action', 1),
        intProp('ActionProcessor.target', 0),
        stringProp('ActionProcessor.duration', '0'),
      ]),
      hashTree([
        element('ConstantThroughputTimer', 'TestBeanGUI', `${step.rate} iterations/s`, [
          // 4: all active threads in the current thread group, one shared schedule (no burst at the start).
          intProp('calcMode', 4),
          el('doubleProp', {}, [
            el('name', {}, 'throughput'),
            el('value', {}, String(Math.round(step.rate * 60 * 1000) / 1000)),
            el('savedValue', {}, '0.0'),
          ]),
        ]),
        hashTree(),
      ]),
    ];
    // Measured in JMeter 2.13: each thread's first iteration of a group passes the timer at once, so a
    // step holds no more threads than it has iterations, lest a slow step start with a burst of the pool.
    const threads = Math.min(pool, Math.max(1, Math.ceil(step.rate * durationS - 1e-9)));
    groups.push(
      threadGroupElement(`${step.rate} iterations/s from ${delayS}s to ${delayS + durationS}s`, {
        threads: String(threads),
        rampS: 0,
        delayS,
        duration: String(durationS),
        delayedStart: true,
      }),
      hashTree([...pacer, ...calls]),
    );
  }
  return groups;
}

/**
 * Flows with weights (docs/adr/0027-load-profiles.md "Flows"): a Counter shared by every thread moves on
 * once per iteration through one cycle of the weights (the engine's smooth weighted round robin), User
 * Defined Variables hold the flow of each place (`aqa_flow_0`, `aqa_flow_1`, …), and a Switch Controller
 * runs that flow — a Simple Controller of its calls in plan order. Exactly one flow per iteration, and
 * every whole cycle split exactly by the weights, as in the engine (Throughput Controllers in percent
 * mode decide each iteration on their own, so an iteration could run two flows or none). Only functions
 * JMeter 2.13 has without a script engine (`__V`): Debian's 2.13 has no JavaScript.
 */
function flowElements(flows: readonly FlowModel[], ctx: JmxContext): XmlElement[] {
  const cycle = [...flowCycle(flows.map((f) => f.weight))];
  return [
    element('Arguments', 'ArgumentsPanel', 'Flows: the flow of each place in the cycle of the weights', [
      el(
        'collectionProp',
        { name: 'Arguments.arguments' },
        cycle.map((flow, at) =>
          el('elementProp', { name: `aqa_flow_${at}`, elementType: 'Argument' }, [
            stringProp('Argument.name', `aqa_flow_${at}`),
            stringProp('Argument.value', String(flow)),
            stringProp('Argument.metadata', '='),
          ]),
        ),
      ),
    ]),
    hashTree(),
    element('CounterConfig', 'CounterConfigGui', 'Flows: the iteration’s place in the cycle', [
      stringProp('CounterConfig.start', '0'),
      stringProp('CounterConfig.end', String(cycle.length - 1)),
      stringProp('CounterConfig.incr', '1'),
      stringProp('CounterConfig.name', 'aqa_flow_at'),
      stringProp('CounterConfig.format', ''),
      // One counter for all threads, moving on once per thread iteration.
      boolProp('CounterConfig.per_user', false),
    ]),
    hashTree(),
    element('SwitchController', 'SwitchControllerGui', 'Flows: one per iteration, by weight', [
      stringProp('SwitchController.value', '${__V(aqa_flow_${aqa_flow_at})}'),
    ]),
    hashTree(
      flows.flatMap((flow) => [
        element('GenericController', 'LogicControllerGui', `Flow ${flow.name} (weight ${flow.weight})`),
        hashTree(flow.steps.flatMap((step) => stepElements(step, ctx))),
      ]),
    ),
  ];
}

function counter(max: number, ident: string): XmlElement {
  return element('CounterConfig', 'CounterConfigGui', `{{sequence_number,${max}}}`, [
    stringProp('CounterConfig.start', '1'),
    stringProp('CounterConfig.end', String(max)),
    stringProp('CounterConfig.incr', '1'),
    stringProp('CounterConfig.name', ident),
    stringProp('CounterConfig.format', ''),
    // One counter for all threads; it moves on once per thread iteration and wraps after max.
    boolProp('CounterConfig.per_user', false),
  ]);
}

function httpArgument(name: string, value: string, encode: boolean): XmlElement {
  return el('elementProp', { name, elementType: 'HTTPArgument' }, [
    boolProp('HTTPArgument.always_encode', encode),
    stringProp('Argument.value', value),
    stringProp('Argument.metadata', '='),
    boolProp('HTTPArgument.use_equals', true),
    stringProp('Argument.name', name),
  ]);
}

function arguments_(items: XmlElement[]): XmlElement {
  return el(
    'elementProp',
    {
      name: 'HTTPsampler.Arguments',
      elementType: 'Arguments',
      guiclass: 'HTTPArgumentsPanel',
      testclass: 'Arguments',
      testname: 'User Defined Variables',
      enabled: 'true',
    },
    [el('collectionProp', { name: 'Arguments.arguments' }, items)],
  );
}

interface SamplerTarget {
  method: string;
  domain: string;
  port: string;
  protocol: string;
  path: string;
  arguments: XmlElement[];
  rawBody: boolean;
  timeoutMs: number;
}

function sampler(label: string, target: SamplerTarget): XmlElement {
  return element('HTTPSamplerProxy', 'HttpTestSampleGui', label, [
    ...(target.rawBody ? [boolProp('HTTPSampler.postBodyRaw', true)] : []),
    arguments_(target.arguments),
    stringProp('HTTPSampler.domain', target.domain),
    stringProp('HTTPSampler.port', target.port),
    stringProp('HTTPSampler.protocol', target.protocol),
    stringProp('HTTPSampler.contentEncoding', 'UTF-8'),
    stringProp('HTTPSampler.path', target.path),
    stringProp('HTTPSampler.method', target.method),
    // JMeter sends nothing the plan does not name (docs/adr/0015-target-guard.md "Redirects"): a 3xx is
    // the step's answer, followed neither by JMeter (follow_redirects) nor by its HTTP client
    // (auto_redirects), and no embedded resource of an HTML answer is fetched (image_parser). Each is
    // written out although false is the default: a sampler's own property wins over an HTTP Request
    // Defaults element merged into it, where a missing one would take the defaults' value.
    boolProp('HTTPSampler.follow_redirects', false),
    boolProp('HTTPSampler.auto_redirects', false),
    boolProp('HTTPSampler.image_parser', false),
    boolProp('HTTPSampler.use_keepalive', true),
    boolProp('HTTPSampler.DO_MULTIPART_POST', false),
    stringProp('HTTPSampler.connect_timeout', String(target.timeoutMs)),
    stringProp('HTTPSampler.response_timeout', String(target.timeoutMs)),
  ]);
}

function stepTarget(step: StepModel): SamplerTarget {
  const split = splitOrigin(step.url);
  // With a raw body JMeter's arguments are the body, and a full-URL path takes no arguments: then the
  // query goes into the path.
  const queryInPath = step.query.length > 0 && (step.body !== undefined || !split);
  const pathPieces: JmeterPiece[] = jmeterPieces(split ? split.rest : step.url);
  if (queryInPath) {
    pathPieces.push({ text: valueAsWritten(split ? split.rest : step.url).includes('?') ? '&' : '?' });
    pathPieces.push(...jmeterQueryPieces(step.query));
  }
  const args = step.body
    ? [httpArgument('', jmeterValue(step.body), false)]
    : queryInPath
      ? []
      : step.query.map((q) => httpArgument(jmeterText(q.name), jmeterValue(q.value), true));
  return {
    method: step.method,
    domain: split ? jmeterText(split.origin.host) : '',
    port: split?.origin.port ?? '',
    protocol: split?.origin.protocol ?? '',
    path: jmeterString(pathPieces),
    arguments: args,
    rawBody: step.body !== undefined,
    timeoutMs: step.timeoutMs,
  };
}

function headerManager(headers: Array<{ name: string; value: string }>): XmlElement {
  return element('HeaderManager', 'HeaderPanel', 'HTTP Header Manager', [
    el(
      'collectionProp',
      { name: 'HeaderManager.headers' },
      headers.map((h) =>
        el('elementProp', { name: '', elementType: 'Header' }, [
          stringProp('Header.name', h.name),
          stringProp('Header.value', h.value),
        ]),
      ),
    ),
  ]);
}

function stepElements(step: StepModel, ctx: JmxContext): XmlElement[] {
  const { warnings } = ctx;
  const children: XmlElement[] = [];
  const headers = step.headers.map((h) => ({ name: jmeterText(h.name), value: jmeterValue(h.value) }));
  if (step.oauthClient !== undefined) {
    headers.push({ name: 'Authorization', value: `Bearer \${aqa_oauth_${step.oauthClient}}` });
  }
  if (step.basicAuth) {
    warnings.push({
      field: `${step.field}.authorization`,
      message:
        'JMeter cannot base64-encode basic credentials that hold {{variables}} here; they are encoded as written',
    });
    const text = `${valueAsWritten(step.basicAuth.username)}:${valueAsWritten(step.basicAuth.password)}`;
    headers.push({ name: 'Authorization', value: jmeterText(`Basic ${base64Utf8(text)}`) });
  }
  if (headers.length > 0) children.push(headerManager(headers), hashTree());
  if (ctx.errorBodies) children.push(...errorBodyExtractors());
  if (step.extraction) children.push(...extractor(step, step.extraction, ctx));
  if (step.assertion) children.push(...assertion(step, step.assertion, ctx));
  children.push(
    element('DurationAssertion', 'DurationAssertionGui', `time-out ${step.timeoutMs} ms`, [
      stringProp('DurationAssertion.duration', String(step.timeoutMs)),
    ]),
    hashTree(),
  );

  const elements: XmlElement[] = [sampler(step.label, stepTarget(step)), hashTree(children)];
  if (step.thinkTimeMs > 0) {
    elements.push(
      element('TestAction', 'TestActionGui', `think time ${step.thinkTimeMs} ms`, [
        intProp('ActionProcessor.action', 1),
        intProp('ActionProcessor.target', 0),
        stringProp('ActionProcessor.duration', String(step.thinkTimeMs)),
      ]),
      hashTree(),
    );
  }
  if (step.ratePercent >= 100) return elements;
  return [
    element('ThroughputController', 'ThroughputControllerGui', `transactionRate ${step.ratePercent}%`, [
      intProp('ThroughputController.style', 1),
      boolProp('ThroughputController.perThread', false),
      intProp('ThroughputController.maxThroughput', 1),
      el('FloatProperty', {}, [
        el('name', {}, 'ThroughputController.percentThroughput'),
        el('value', {}, step.ratePercent.toFixed(1)),
        el('savedValue', {}, '0.0'),
      ]),
    ]),
    hashTree(elements),
  ];
}

function jsonExtractor(name: string, variable: string, path: string): XmlElement[] {
  return [
    element('JSONPostProcessor', 'JSONPostProcessorGui', name, [
      stringProp('JSONPostProcessor.referenceNames', variable),
      stringProp('JSONPostProcessor.jsonPathExprs', jmeterText(path)),
      stringProp('JSONPostProcessor.match_numbers', '1'),
      stringProp('JSONPostProcessor.defaultValues', ''),
    ]),
    hashTree(),
  ];
}

function regexExtractor(
  name: string,
  variable: string,
  pattern: string,
  template: string,
  {
    field = 'false',
    defaultValue = '',
    patternIsVariable = false,
    fromVariable,
  }: {
    field?: 'false' | 'code';
    defaultValue?: string;
    /** `pattern` names a JMeter variable that holds the pattern, read when the extractor runs. */
    patternIsVariable?: boolean;
    /** Match this JMeter variable instead of the answer ("Apply to: JMeter Variable"). */
    fromVariable?: string;
  } = {},
): XmlElement[] {
  return [
    element('RegexExtractor', 'RegexExtractorGui', name, [
      ...(fromVariable === undefined
        ? []
        : [stringProp('Sample.scope', 'variable'), stringProp('Scope.variable', fromVariable)]),
      stringProp('RegexExtractor.useHeaders', field),
      stringProp('RegexExtractor.refname', variable),
      stringProp(
        'RegexExtractor.regex',
        patternIsVariable ? jmeterString([{ expression: `\${${pattern}}` }]) : jmeterText(pattern),
      ),
      stringProp('RegexExtractor.template', template),
      // Empty: no match leaves the variable as it was (JMeter before 3.0 has no "empty default" switch).
      stringProp('RegexExtractor.default', defaultValue),
      stringProp('RegexExtractor.match_number', '1'),
    ]),
    hashTree(),
  ];
}

/**
 * The start of an answer's body when its status is 400 or more, in aqa_error_body (JmxOptions.errorBodies),
 * written with Regular Expression Extractors only, so any JMeter can run it: the first reads the response
 * code and sets aqa_error_gate to a pattern that takes the first ERROR_BODY_SNIPPET_CHARS characters of the
 * body (status ≥ 400) or one that takes none; the second runs that pattern on the body. The gate is a
 * variable in the second one's pattern, evaluated when it runs, just after the first.
 */
function errorBodyExtractors(): XmlElement[] {
  const take = `^([\\s\\S]{0,${ERROR_BODY_SNIPPET_CHARS}})`;
  return [
    ...regexExtractor('error body: status gate', 'aqa_error_gate', '^[4-9]\\d\\d$', take, {
      field: 'code',
      defaultValue: '^()',
    }),
    ...regexExtractor('error body', JMETER_ERROR_BODY_VARIABLE, 'aqa_error_gate', '$1$', {
      patternIsVariable: true,
    }),
  ];
}

/**
 * A JSONPath for a JMeter without the JSON Extractor: two Regular Expression Extractors (json-path-regex.ts),
 * one for a string value and one for any other; `reset` empties the variable first, so that a path that
 * is absent reads as "" (what the JSON Extractor's empty default gives an assertion). Undefined, with the
 * step listed as unsupported, when the path has no regular expression.
 */
function jsonPathAsRegexExtractors(
  step: StepModel,
  at: string,
  variable: string,
  model: { path: string; segments: Parameters<typeof jsonPathRegexes>[0] },
  reset: boolean,
  ctx: JmxContext,
): XmlElement[] | undefined {
  const subject = `JMeter ${ctx.version ?? ''}`.trim();
  const answer = jsonPathRegexes(model.segments);
  if (!answer.ok) {
    ctx.unsupported.push({
      field: `${step.field}.${at}`,
      message: `${subject} cannot read ${model.path}: it has no JSON Extractor (JMeter 3.0 and later), and a regular expression stands in only for ${JSON_REGEX_PATHS}, while ${answer.reason}`,
    });
    return undefined;
  }
  ctx.warnings.push({
    field: `${step.field}.${at}`,
    message: `${subject} has no JSON Extractor (JMeter 3.0 and later): ${model.path} is read with a regular expression, which finds it in well-formed JSON with the limits of docs/reference/01-authoring.md §9`,
  });
  const head = `aqa_json_head_${step.index + 1}`;
  return [
    ...(reset ? regexExtractor(`${model.path} (reset)`, variable, '^()', '$1$') : []),
    // The paths are matched in the body's first JSON_REGEX_PREFIX_CHARS characters only: ORO recurses once
    // per JSON token it steps over, so a bounded text bounds its stack (json-path-regex.ts).
    ...regexExtractor(`${model.path} (body start)`, head, `^([\\s\\S]{0,${JSON_REGEX_PREFIX_CHARS}})`, '$1$'),
    ...regexExtractor(`${model.path} (string)`, variable, answer.regexes.string, '$1$', {
      fromVariable: head,
    }),
    ...regexExtractor(`${model.path} (other value)`, variable, answer.regexes.other, '$1$', {
      fromVariable: head,
    }),
  ];
}

function xpathExtractor(name: string, variable: string, xpath: string): XmlElement[] {
  return [
    element('XPathExtractor', 'XPathExtractorGui', name, [
      stringProp('XPathExtractor.default', ''),
      stringProp('XPathExtractor.refname', variable),
      stringProp('XPathExtractor.xpathQuery', jmeterText(xpath)),
      boolProp('XPathExtractor.validate', false),
      boolProp('XPathExtractor.tolerant', false),
      boolProp('XPathExtractor.namespace', false),
      boolProp('XPathExtractor.fragment', false),
    ]),
    hashTree(),
  ];
}

function extractor(step: StepModel, extraction: ExtractionModel, ctx: JmxContext): XmlElement[] {
  const { warnings } = ctx;
  const name = `extract ${extraction.name}`;
  switch (extraction.type) {
    case 'json':
      if (!ctx.jsonExtractor) {
        const written = jsonPathAsRegexExtractors(
          step,
          'extractValue',
          extraction.ident,
          extraction,
          false,
          ctx,
        );
        if (written) return written;
      } else if (extraction.path.includes(';')) {
        warnings.push({
          field: `${step.field}.extractValue`,
          message:
            'JMeter\'s JSON Extractor splits expressions at ";", so this JSONPath may be read as several',
        });
      }
      return jsonExtractor(name, extraction.ident, extraction.path);
    case 'regex': {
      const groups = captureGroupCount(extraction.pattern);
      return regexExtractor(name, extraction.ident, extraction.pattern, groups === 0 ? '$0$' : '$1$');
    }
    case 'text':
      return regexExtractor(
        name,
        extraction.ident,
        extraction.boundaries.kind === 'whole-body'
          ? '([\\s\\S]*)'
          : textExtractionPattern(extraction.boundaries, escapeOroRegex),
        '$1$',
      );
    case 'xml':
      return xpathExtractor(name, extraction.ident, extraction.path);
  }
}

/** Response Assertion test types (org.apache.jmeter.assertions.ResponseAssertion). */
const MATCHES = 1;
const NOT = 4;
const TEST_TYPE = { equals: 8, not_equals: 8 | NOT, contains: 16, regex: 2 } as const;

function assertion(step: StepModel, model: AssertionModel, ctx: JmxContext): XmlElement[] {
  const variable = `aqa_assert_${step.index + 1}`;
  const out: XmlElement[] = [];
  let field = 'Assertion.response_data';
  let scope: XmlElement[] = [];
  if (model.type === 'status') field = 'Assertion.response_code';
  if (model.type === 'json' || model.type === 'xml') {
    const name = `assertion value ${model.path}`;
    out.push(
      ...(model.type === 'xml'
        ? xpathExtractor(name, variable, model.path)
        : (!ctx.jsonExtractor &&
            jsonPathAsRegexExtractors(step, 'assertionPath', variable, model, true, ctx)) ||
          jsonExtractor(name, variable, model.path)),
    );
    scope = [stringProp('Assertion.scope', 'variable'), stringProp('Scope.variable', variable)];
  }
  let expected = model.expected;
  let testType: number = TEST_TYPE[model.operator];
  if (model.type === 'json' && model.literal) {
    // docs/design.md §4 "JSON literals": the extracted text of the value against the literal's.
    const text = jsonLiteralText(model.literal);
    const not = model.operator === 'not_equals' ? NOT : 0;
    if ('exact' in text) expected = text.exact;
    else [expected, testType] = [text.pattern, MATCHES | not];
    if (model.literal.kind === 'null') {
      ctx.warnings.push({
        field: `${step.field}.assertionValue`,
        message:
          "JMeter's JSON Extractor writes null as empty text, as it does a path that matches nothing, so a missing value passes this null assertion too",
      });
    }
  }
  out.push(
    element('ResponseAssertion', 'AssertionGui', model.description, [
      el('collectionProp', { name: 'Asserion.test_strings' }, [stringProp('0', jmeterText(expected))]),
      stringProp('Assertion.custom_message', ''),
      stringProp('Assertion.test_field', field),
      boolProp('Assertion.assume_success', false),
      intProp('Assertion.test_type', testType),
      ...scope,
    ]),
    hashTree(),
  );
  return out;
}

function oauthSampler(client: OAuthClientModel): XmlElement[] {
  const form = [
    httpArgument('grant_type', 'client_credentials', true),
    httpArgument('client_id', jmeterText(client.clientId), true),
    httpArgument('client_secret', jmeterText(client.clientSecret), true),
    ...(client.scope ? [httpArgument('scope', jmeterText(client.scope), true)] : []),
  ];
  const split = splitOrigin([{ kind: 'text', text: client.tokenUrl }]);
  return [
    sampler('OAuth2 token', {
      method: 'POST',
      domain: split ? jmeterText(split.origin.host) : '',
      port: split?.origin.port ?? '',
      protocol: split?.origin.protocol ?? '',
      path: split ? jmeterValue(split.rest) : jmeterText(client.tokenUrl),
      arguments: form,
      rawBody: false,
      timeoutMs: 30_000,
    }),
    hashTree(regexExtractor('access_token', client.ident, '"access_token"\\s*:\\s*"([^"]+)"', '$1$')),
  ];
}
