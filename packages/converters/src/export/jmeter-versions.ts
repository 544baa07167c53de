/**
 * What each JMeter version can load, element by element, for the elements the JMX generator writes
 * (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions"). JMeter refuses a whole test plan
 * when one element's class is missing (ConversionException … CannotResolveClassException), so an
 * element newer than the installed JMeter is not a detail: the run fails before its first request.
 *
 * "Loads in 2.13" means loaded and run by Debian's JMeter 2.13 in plan-to-jmx.test.ts, not read from
 * changelogs. Properties that later versions added to an element (Assertion.custom_message,
 * ThreadGroup.same_user_on_next_iteration) are ignored by older versions, which load the element.
 */

/** A JMeter version as "major.minor" numbers; null when the text holds none. */
export function parseJmeterVersion(text: string | null | undefined): [number, number] | null {
  const m = /(\d+)\.(\d+)/.exec(text ?? '');
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** Whether `version` is `since` or later; an unknown version counts as current (the generator writes JMeter 5). */
export function jmeterAtLeast(version: string | null | undefined, since: string): boolean {
  const have = parseJmeterVersion(version);
  const need = parseJmeterVersion(since);
  if (have === null || need === null) return true;
  return have[0] !== need[0] ? have[0] > need[0] : have[1] >= need[1];
}

export interface JmeterElement {
  /** The element's test class as the JMX names it. */
  testclass: string;
  /** Its name in JMeter's GUI. */
  name: string;
  /** The first JMeter version that has it; "2.13" where it loads in Debian's 2.13 (older ones untested). */
  since: string;
  /** What the generator writes it for. */
  usedFor: string;
}

/** Every element the generator writes, with the JMeter version that can load it. */
export const JMETER_ELEMENTS: readonly JmeterElement[] = [
  { testclass: 'TestPlan', name: 'Test Plan', since: '2.13', usedFor: 'the plan' },
  {
    testclass: 'ThreadGroup',
    name: 'Thread Group',
    since: '2.13',
    usedFor: 'users and duration (-Jaqa.users, -Jaqa.duration)',
  },
  {
    testclass: 'LoopController',
    name: 'Loop Controller',
    since: '2.13',
    usedFor: "the thread group's endless loop over the steps",
  },
  {
    testclass: 'Arguments',
    name: 'User Defined Variables / HTTP arguments',
    since: '2.13',
    usedFor: 'query parameters and bodies',
  },
  { testclass: 'CounterConfig', name: 'Counter', since: '2.13', usedFor: '{{sequence_number,N}}' },
  { testclass: 'OnceOnlyController', name: 'Once Only Controller', since: '2.13', usedFor: 'OAuth2 tokens' },
  {
    testclass: 'ThroughputController',
    name: 'Throughput Controller',
    since: '2.13',
    usedFor: 'transactionRate',
  },
  {
    testclass: 'SwitchController',
    name: 'Switch Controller',
    since: '2.13',
    usedFor: "flows: the flow of each iteration, by the run-wide iteration's place in the weights' cycle",
  },
  { testclass: 'GenericController', name: 'Simple Controller', since: '2.13', usedFor: "each flow's calls" },
  { testclass: 'HTTPSamplerProxy', name: 'HTTP Request', since: '2.13', usedFor: 'each step' },
  {
    testclass: 'HeaderManager',
    name: 'HTTP Header Manager',
    since: '2.13',
    usedFor: 'headers, authorization',
  },
  {
    testclass: 'RegexExtractor',
    name: 'Regular Expression Extractor',
    since: '2.13',
    usedFor:
      'regex and text extractions, OAuth2 access_token, JSON paths before JMeter 3.0, error bodies of a run',
  },
  {
    testclass: 'XPathExtractor',
    name: 'XPath Extractor',
    since: '2.13',
    usedFor: 'xml extractions and assertions',
  },
  {
    testclass: 'JSONPostProcessor',
    name: 'JSON Extractor',
    since: '3.0',
    usedFor: 'json extractions and assertions (JMeter 3.0 and later)',
  },
  { testclass: 'ResponseAssertion', name: 'Response Assertion', since: '2.13', usedFor: 'assertions' },
  { testclass: 'DurationAssertion', name: 'Duration Assertion', since: '2.13', usedFor: 'the step time-out' },
  {
    testclass: 'TestAction',
    name: 'Flow Control Action (Test Action before 4.0)',
    since: '2.13',
    usedFor: 'think time; the start of an iteration that a throughput timer paces',
  },
  {
    testclass: 'ConstantThroughputTimer',
    name: 'Constant Throughput Timer',
    since: '2.13',
    usedFor: "the arrival rate of a load profile's open model",
  },
];

/** The version an element needs ("2.13" for every element 2.13 loads). */
export function jmeterElementSince(testclass: string): string {
  return JMETER_ELEMENTS.find((e) => e.testclass === testclass)?.since ?? '2.13';
}

/**
 * Whether JMeter at `version` has the JSON Extractor; an unknown version has it. Without it the JMX reads
 * JSONPaths with regular expressions (json-path-regex.ts), which need a larger thread stack
 * (JMETER_LEGACY_THREAD_STACK). The one place that compares a JMeter version with the JSON Extractor's.
 */
export function jmeterHasJsonExtractor(version: string | null | undefined): boolean {
  return jmeterAtLeast(version, jmeterElementSince('JSONPostProcessor'));
}
