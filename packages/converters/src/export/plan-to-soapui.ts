import { scriptFileName } from './file-name';
import { segmentsAsData } from './json-path';
import {
  type AssertionModel,
  type GeneratedScript,
  type ScriptModel,
  type ScriptSource,
  type ScriptWarning,
  type StepModel,
  buildScriptModel,
  flowsNotWritten,
  uniqueWarnings,
  valueAsWritten,
} from './script-model';
import { base64Utf8 } from './serializers/base64';
import { groovyList, groovyString } from './serializers/groovy-literal';
import { escapeOroRegex } from './serializers/regex-escape';
import { DOLLAR_PROPERTY, needsDollarProperty, soapUiText, soapUiValue } from './serializers/soapui-text';
import { type XmlElement, el, renderXml, renderXmlDocument } from './serializers/xml-writer';
import { textExtractionPattern } from './text-extraction';
import { originText, splitOrigin } from './url-parts';

/**
 * SoapUI project (.xml, SoapUI 5.x) with one test suite, one test case whose test steps are the plan's
 * steps, and a LoadTest of the plan's users for its duration (docs/design.md §5). Each plan step becomes an HTTP
 * Request test step, followed where needed by a Property Transfer (json and xml extraction), a Groovy
 * Script step (regex and text extraction) and a Delay step (think time); transactionRate is a Groovy step
 * that jumps past the request. Variables are test-case properties, expanded as ${#TestCase#name}; SoapUI
 * runs a copy of the test case per load-test thread, so each thread keeps its own. {{sequence_number,N}}
 * is a Groovy step that advances a project-wide counter once per test-case run.
 */
export function planToSoapUi(source: ScriptSource): GeneratedScript {
  const model = buildScriptModel(source);
  const warnings = [...model.warnings];
  const names = model.steps.map((step) => stepName(step));
  const groups = model.steps.map((step, i) => stepGroup(step, names[i] ?? step.label, warnings));

  const testSteps: XmlElement[] = [];
  if (model.sequences.length > 0) testSteps.push(groovyStep('Sequence numbers', sequenceScript(model)));
  model.oauthClients.forEach((client, i) => {
    const name = `OAuth2 token ${i + 1}`;
    testSteps.push(
      httpRequestStep(name, {
        method: 'POST',
        endpoint: soapUiText(client.tokenUrl),
        mediaType: 'application/x-www-form-urlencoded',
        // Query-style parameters sent as the form body.
        postQueryString: true,
        headers: [],
        body: undefined,
        parameters: [
          ['grant_type', 'client_credentials'],
          ['client_id', soapUiText(client.clientId)],
          ['client_secret', soapUiText(client.clientSecret)],
          ...(client.scope ? ([['scope', soapUiText(client.scope)]] as Array<[string, string]>) : []),
        ],
        assertions: [statusBelow400()],
        timeoutMs: 30_000,
      }),
      transferStep(`${name} - access_token`, name, '$.access_token', client.ident, 'JSONPATH'),
    );
  });
  if (model.oauthClients.length > 0) {
    const first = model.steps.find((s) => s.oauthClient !== undefined);
    warnings.push({
      field: `${first?.field ?? 'urls'}.authorization`,
      message:
        'SoapUI fetches the OAuth2 token at the start of every test-case run (each load-test iteration), not once per user',
    });
  }
  groups.forEach((group, i) => {
    const step = model.steps[i];
    if (step && step.ratePercent < 100) {
      const target = names[i + 1] ?? END_STEP;
      testSteps.push(
        groovyStep(
          `${names[i]} - transactionRate`,
          [
            `// transactionRate: the request runs in ${step.ratePercent}% of the iterations, at random.`,
            `if (Math.random() * 100 >= ${step.ratePercent}) testRunner.gotoStepByName(${groovyString(target)})`,
          ].join('\n'),
        ),
      );
    }
    testSteps.push(...group);
  });
  // Steps skipped at random jump ahead; after the last step they need somewhere to land.
  if (model.steps.at(-1) && (model.steps.at(-1)?.ratePercent ?? 100) < 100)
    testSteps.push(delayStep(END_STEP, 0));

  const properties: Array<[string, string]> = [
    ...model.variables.map((v): [string, string] => [v.ident, '']),
    ...model.sequences.map((s): [string, string] => [s.ident, '0']),
    ...model.oauthClients.map((c): [string, string] => [c.ident, '']),
  ];
  const allValues = model.steps.flatMap((s) => [
    s.url,
    s.body ?? [],
    ...s.headers.map((h) => h.value),
    ...s.query.map((q) => q.value),
  ]);
  if (allValues.some(needsDollarProperty)) properties.push([DOLLAR_PROPERTY, '$']);

  const endpoints = [
    ...new Set(
      model.steps.flatMap((s) => {
        const split = splitOrigin(s.url);
        return split ? [originText(split.origin)] : [];
      }),
    ),
  ];

  const project = el(
    'con:soapui-project',
    {
      name: model.name,
      'soapui-version': '5.7.0',
      abortOnError: 'false',
      runType: 'SEQUENTIAL',
      resourceRoot: '',
      'xmlns:con': 'http://eviware.com/soapui/config',
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    },
    [
      el('con:settings'),
      el(
        'con:interface',
        {
          'xsi:type': 'con:RestService',
          name: 'Plan endpoints',
          type: 'rest',
          wadlVersion: 'http://wadl.dev.java.net/2009/02',
        },
        [
          el('con:settings'),
          el('con:definitionCache', { type: 'TEXT', rootPart: '' }),
          el(
            'con:endpoints',
            {},
            endpoints.map((e) => el('con:endpoint', {}, e)),
          ),
        ],
      ),
      el('con:testSuite', { name: 'Performance plan' }, [
        el('con:settings'),
        el('con:runType', {}, 'SEQUENTIAL'),
        el(
          'con:testCase',
          {
            name: model.name,
            failOnError: 'false',
            failTestCaseOnErrors: 'true',
            keepSession: 'false',
            searchProperties: 'true',
            maxResults: '0',
          },
          [el('con:settings'), ...testSteps, loadTest(model), propertiesElement(properties)],
        ),
      ]),
      propertiesElement(model.sequences.map((s) => [s.ident, '0'])),
    ],
  );

  const flows = flowsNotWritten(source, 'SoapUI');
  return {
    files: [{ name: scriptFileName('soapui', source.name), content: renderXmlDocument(project) }],
    warnings: uniqueWarnings([...warnings, ...flows]),
    ...(flows.length > 0 ? { unsupported: flows } : {}),
  };
}

const END_STEP = 'End of iteration';

/** Test step names are unique (numbered) and hold no character SoapUI or Groovy reads specially. */
function stepName(step: StepModel): string {
  return step.label.replace(/[$#{}\\'"\r\n\t\u2028\u2029]/g, '_');
}

function propertiesElement(pairs: ReadonlyArray<readonly [string, string]>): XmlElement {
  return el(
    'con:properties',
    {},
    pairs.map(([name, value]) =>
      el('con:property', {}, [el('con:name', {}, name), el('con:value', {}, value)]),
    ),
  );
}

function groovyStep(name: string, script: string): XmlElement {
  // SoapUI writes the script element without a namespace prefix.
  return el('con:testStep', { type: 'groovy', name }, [
    el('con:settings'),
    el('con:config', {}, [el('script', {}, script)]),
  ]);
}

function delayStep(name: string, ms: number): XmlElement {
  return el('con:testStep', { type: 'delay', name }, [
    el('con:settings'),
    el('con:config', {}, [el('delay', {}, String(ms))]),
  ]);
}

function transferStep(
  name: string,
  sourceStep: string,
  path: string,
  targetProperty: string,
  type: 'JSONPATH' | 'XPATH',
): XmlElement {
  return el('con:testStep', { type: 'transfer', name }, [
    el('con:settings'),
    el('con:config', { 'xsi:type': 'con:PropertyTransfersStep' }, [
      el(
        'con:transfers',
        {
          setNullOnMissingSource: 'false',
          transferTextContent: 'true',
          failOnError: 'false',
          ignoreEmpty: 'true',
          transferToAll: 'false',
          entitize: 'false',
          transferChildNodes: 'false',
        },
        [
          el('con:name', {}, targetProperty),
          el('con:sourceType', {}, 'Response'),
          el('con:sourceStep', {}, sourceStep),
          el('con:sourcePath', {}, soapUiText(path)),
          el('con:targetType', {}, targetProperty),
          el('con:targetStep', {}, '#TestCase#'),
          el('con:targetPath'),
          el('con:type', {}, type),
        ],
      ),
    ]),
  ]);
}

interface HttpRequestSpec {
  method: string;
  endpoint: string;
  mediaType: string;
  postQueryString: boolean;
  headers: Array<[string, string]>;
  body: string | undefined;
  parameters: Array<[string, string]>;
  assertions: XmlElement[];
  timeoutMs: number;
}

function httpRequestStep(name: string, spec: HttpRequestSpec): XmlElement {
  // Request headers are an XML fragment kept as the text of a setting, so they are written, then escaped again.
  const headerFragment = renderXml(
    el(
      'xml-fragment',
      { 'xmlns:con': 'http://eviware.com/soapui/config' },
      spec.headers.map(([key, value]) => el('con:entry', { key, value })),
    ),
  );
  return el('con:testStep', { type: 'httprequest', name }, [
    el('con:settings'),
    el(
      'con:config',
      {
        method: spec.method,
        'xsi:type': 'con:HttpRequest',
        name,
        mediaType: spec.mediaType,
        postQueryString: String(spec.postQueryString),
        timeout: String(spec.timeoutMs),
      },
      [
        el('con:settings', {}, [
          el(
            'con:setting',
            { id: 'com.eviware.soapui.impl.wsdl.WsdlRequest@request-headers' },
            headerFragment,
          ),
        ]),
        el('con:endpoint', {}, spec.endpoint),
        el('con:request', {}, spec.body ?? ''),
        ...spec.assertions,
        el('con:credentials', {}, [el('con:authType', {}, 'No Authorization')]),
        el('con:jmsConfig', { JMSDeliveryMode: 'PERSISTENT' }),
        el('con:jmsPropertyConfig'),
        el(
          'con:parameters',
          {},
          spec.parameters.map(([key, value]) =>
            el('con:parameter', {}, [
              el('con:name', {}, key),
              el('con:value', {}, value),
              el('con:style', {}, 'QUERY'),
            ]),
          ),
        ),
      ],
    ),
  ]);
}

function scriptAssertion(name: string, script: string): XmlElement {
  return el('con:assertion', { type: 'GroovyScriptAssertion', name }, [
    el('con:configuration', {}, [el('scriptText', {}, script)]),
  ]);
}

/** docs/design.md §4: a status of 400 or more is an error; SoapUI's HTTP step does not fail on it by itself. */
function statusBelow400(): XmlElement {
  return scriptAssertion(
    'status below 400',
    [
      'def status = messageExchange.response?.statusCode ?: 0',
      "assert status > 0 && status < 400 : 'HTTP status ' + status",
    ].join('\n'),
  );
}

function stepGroup(step: StepModel, name: string, warnings: ScriptWarning[]): XmlElement[] {
  const headers: Array<[string, string]> = step.headers.map((h) => [h.name, soapUiValue(h.value)]);
  if (step.oauthClient !== undefined)
    headers.push(['Authorization', `Bearer \${#TestCase#aqa_oauth_${step.oauthClient}}`]);
  if (step.basicAuth) {
    warnings.push({
      field: `${step.field}.authorization`,
      message:
        'The SoapUI project cannot base64-encode basic credentials that hold {{variables}}; they are encoded as written',
    });
    const text = `${valueAsWritten(step.basicAuth.username)}:${valueAsWritten(step.basicAuth.password)}`;
    headers.push(['Authorization', soapUiText(`Basic ${base64Utf8(text)}`)]);
  }
  const contentType = step.headers.find((h) => h.name.toLowerCase() === 'content-type');
  const assertions = [statusBelow400()];
  if (step.assertion) assertions.push(...assertionElements(step, step.assertion, warnings));
  // Response SLA: a response slower than the step's time-out fails, as a time-out does in the engine.
  assertions.push(
    el('con:assertion', { type: 'Response SLA Assertion', name: `time-out ${step.timeoutMs} ms` }, [
      el('con:configuration', {}, [el('SLA', {}, String(step.timeoutMs))]),
    ]),
  );
  const group: XmlElement[] = [
    httpRequestStep(name, {
      method: step.method,
      endpoint: soapUiValue(step.url),
      mediaType: contentType ? valueAsWritten(contentType.value) : 'text/plain',
      postQueryString: false,
      headers,
      body: step.body ? soapUiValue(step.body) : undefined,
      parameters: step.query.map((q) => [q.name, soapUiValue(q.value)]),
      assertions,
      timeoutMs: step.timeoutMs,
    }),
  ];
  const extraction = step.extraction;
  if (extraction) {
    const extractStep = `${name} - extract ${extraction.name}`;
    switch (extraction.type) {
      case 'json':
        group.push(transferStep(extractStep, name, extraction.path, extraction.ident, 'JSONPATH'));
        break;
      case 'xml':
        group.push(transferStep(extractStep, name, extraction.path, extraction.ident, 'XPATH'));
        break;
      case 'regex':
      case 'text': {
        const pattern =
          extraction.type === 'regex'
            ? extraction.pattern
            : extraction.boundaries.kind === 'whole-body'
              ? undefined
              : textExtractionPattern(extraction.boundaries, escapeOroRegex);
        group.push(groovyStep(extractStep, regexExtractionScript(name, extraction.ident, pattern)));
        break;
      }
    }
  }
  if (step.thinkTimeMs > 0) group.push(delayStep(`${name} - think time`, step.thinkTimeMs));
  return group;
}

function regexExtractionScript(sourceStep: string, property: string, pattern: string | undefined): string {
  const lines = [
    `def body = testRunner.testCase.getTestStepByName(${groovyString(sourceStep)}).testRequest.response?.contentAsString ?: ''`,
  ];
  if (pattern === undefined) {
    lines.push(`testRunner.testCase.setPropertyValue(${groovyString(property)}, body)`);
  } else {
    lines.push(
      `def match = java.util.regex.Pattern.compile(${groovyString(pattern)}).matcher(body)`,
      '// The first capture group, or the whole match when the pattern has none; no match keeps the old value.',
      `if (match.find()) testRunner.testCase.setPropertyValue(${groovyString(property)}, match.groupCount() > 0 ? match.group(1) : match.group(0))`,
    );
  }
  return lines.join('\n');
}

function sequenceScript(model: ScriptModel): string {
  const lines = [
    '// {{sequence_number,N}}: one counter per N for the whole load test, kept on the project and shared by',
    '// every thread; it moves on once per test-case run and wraps after N.',
    'def project = testRunner.testCase.testSuite.project',
    'synchronized (project) {',
  ];
  for (const { max, ident } of model.sequences) {
    lines.push(
      `  def next${max} = ((project.getPropertyValue('${ident}') ?: '0') as long) % ${max} + 1`,
      `  project.setPropertyValue('${ident}', String.valueOf(next${max}))`,
      `  testRunner.testCase.setPropertyValue('${ident}', String.valueOf(next${max}))`,
    );
  }
  lines.push('}');
  return lines.join('\n');
}

const COMPARE: Record<AssertionModel['operator'], string> = {
  equals: 'actual == expected',
  not_equals: 'actual != expected',
  contains: 'actual.contains(expected)',
  regex: 'java.util.regex.Pattern.compile(expected).matcher(actual).find()',
};

function assertionElements(step: StepModel, model: AssertionModel, warnings: ScriptWarning[]): XmlElement[] {
  const value = model.expected;
  // The exact built-in assertions where SoapUI has one, a Script Assertion otherwise.
  if (model.type === 'status' && (model.operator === 'equals' || model.operator === 'not_equals')) {
    return [
      el(
        'con:assertion',
        {
          type: model.operator === 'equals' ? 'Valid HTTP Status Codes' : 'Invalid HTTP Status Codes',
          name: model.description,
        },
        [el('con:configuration', {}, [el('codes', {}, soapUiText(value))])],
      ),
    ];
  }
  if (model.type === 'text' && (model.operator === 'contains' || model.operator === 'regex')) {
    // Simple Contains with a regex tests the whole body (String.matches), so a search is wrapped.
    const token = model.operator === 'contains' ? value : `(?s).*(?:${value}).*`;
    return [
      el('con:assertion', { type: 'Simple Contains', name: model.description }, [
        el('con:configuration', {}, [
          el('token', {}, soapUiText(token)),
          el('ignoreCase', {}, 'false'),
          el('useRegEx', {}, String(model.operator === 'regex')),
        ]),
      ]),
    ];
  }
  let actual: string[];
  switch (model.type) {
    case 'status':
      actual = ['def actual = String.valueOf(messageExchange.response?.statusCode ?: 0)'];
      break;
    case 'text':
      actual = ["def actual = messageExchange.responseContent ?: ''"];
      break;
    case 'json':
      if (!model.segments) {
        warnings.push({
          field: `${step.field}.assertionPath`,
          message: `The SoapUI script assertion evaluates JSONPath itself and cannot read ${model.path}; the assertion is left out`,
        });
        return [];
      }
      if (model.literal) {
        const literal = model.literal;
        const expected =
          literal.kind === 'null'
            ? 'null'
            : literal.kind === 'boolean'
              ? String(literal.value)
              : groovyString(String(literal.value));
        return [
          scriptAssertion(
            model.description,
            [
              "def body = messageExchange.responseContent ?: ''",
              `def found = jsonFirst(body, ${groovyList(segmentsAsData(model.segments).flat())}, ${model.segments.length})`,
              `def equal = found[0] && jsonEquals(found[1], ${groovyString(literal.kind)}, ${expected})`,
              `assert ${model.operator === 'equals' ? 'equal' : '!equal'} : ${groovyString(`${model.description}; got `)} + (found[0] ? groovy.json.JsonOutput.toJson(found[1]) : 'nothing')`,
              ...GROOVY_JSON_HELPER,
            ].join('\n'),
          ),
        ];
      }
      actual = [
        "def body = messageExchange.responseContent ?: ''",
        `def actual = jsonText(body, ${groovyList(segmentsAsData(model.segments).flat())}, ${model.segments.length}) ?: ''`,
        ...GROOVY_JSON_HELPER,
      ];
      break;
    case 'xml':
      actual = [
        "def body = messageExchange.responseContent ?: ''",
        `def actual = javax.xml.xpath.XPathFactory.newInstance().newXPath().evaluate(${groovyString(model.path)}, new org.xml.sax.InputSource(new StringReader(body)))`,
      ];
      break;
  }
  return [
    scriptAssertion(
      model.description,
      [
        ...actual,
        `def expected = ${groovyString(value)}`,
        `assert ${COMPARE[model.operator]} : ${groovyString(`${model.description}; got `)} + actual`,
      ].join('\n'),
    ),
  ];
}

/**
 * JSONPath in Groovy over the segment list of json-path.ts, flattened: ops "k" name, "i" index, "*",
 * ".." name. Declared after its use, as Groovy scripts allow.
 */
const GROOVY_JSON_HELPER = [
  'def jsonFirst(String text, List flat, int count) {',
  '  def values',
  '  try { values = [new groovy.json.JsonSlurper().parseText(text)] } catch (Exception e) { return [false, null] }',
  '  def i = 0',
  '  for (int n = 0; n < count; n++) {',
  '    def op = flat[i++]',
  "    def arg = (op == '*') ? null : flat[i++]",
  '    def next = []',
  '    values.each { v ->',
  "      if (op == '..') descend(v, arg, next)",
  "      else if (op == '*') { if (v instanceof Map) next.addAll(v.values()); else if (v instanceof List) next.addAll(v) }",
  "      else if (op == 'i') { if (v instanceof List) { def k = arg < 0 ? v.size() + arg : arg; if (k >= 0 && k < v.size()) next << v[k] } }",
  '      else if (v instanceof Map && v.containsKey(arg)) next << v[arg]',
  '    }',
  '    values = next',
  '  }',
  '  return values.isEmpty() ? [false, null] : [true, values[0]]',
  '}',
  'def jsonText(String text, List flat, int count) {',
  '  def found = jsonFirst(text, flat, count)',
  '  if (!found[0]) return null',
  '  return found[1] instanceof String ? found[1] : groovy.json.JsonOutput.toJson(found[1])',
  '}',
  '// docs/design.md §4 "JSON literals": a string only a string, a number a number of that value, true/false/null only themselves.',
  'def jsonEquals(value, String kind, expected) {',
  "  if (kind == 'null') return value == null",
  "  if (kind == 'string') return value instanceof String && value == expected",
  "  if (kind == 'boolean') return value instanceof Boolean && value == expected",
  '  return value instanceof Number && (value as BigDecimal).compareTo(new BigDecimal(expected)) == 0',
  '}',
  'def descend(v, key, List out) {',
  '  if (v instanceof Map) { if (v.containsKey(key)) out << v[key]; v.values().each { descend(it, key, out) } }',
  '  else if (v instanceof List) v.each { descend(it, key, out) }',
  '}',
];

function loadTest(model: ScriptModel): XmlElement {
  const child = (name: string, text: string) => el(`con:${name}`, {}, text);
  return el('con:loadTest', { name: 'Plan load test' }, [
    el('con:settings'),
    child('threadCount', String(model.users)),
    child('startDelay', '0'),
    child('sampleInterval', '250'),
    child('calculateTPSOnTimePassed', 'true'),
    child('resetStatisticsOnThreadCountChange', 'true'),
    child('historyLimit', '-1'),
    child('testLimit', String(model.durationS)),
    child('limitType', 'TIME'),
    el('con:loadStrategy', {}, [
      child('type', 'Simple'),
      el('con:config', {}, [el('testDelay', {}, '0'), el('randomFactor', {}, '0')]),
    ]),
    child('maxAssertionErrors', '100'),
    el('con:statisticsLogFolder'),
    child('statisticsLogInterval', '0'),
    child('logStatisticsOnThreadChange', 'false'),
    child('cancelOnReachedLimit', 'true'),
    child('cancelExcessiveThreads', 'true'),
    child('strategyInterval', '500'),
    child('updateStatisticsPerTestStep', 'false'),
  ]);
}
