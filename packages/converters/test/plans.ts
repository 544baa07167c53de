import { PerfPlanSchema, type PerfPlan, type PerfPlanInput } from '@aqa/plan';
import { API_KEY, BASIC, OAUTH_CLIENT, QUERY_KEY } from './target';

/** The plans the generator tests share; `base` is the target's origin. */

const oauth = (base: string) => ({
  type: 'oauth2',
  token: `${OAUTH_CLIENT.id}:${OAUTH_CLIENT.secret}`,
  tokenUrl: `${base}/oauth/token`,
});

function plan(input: PerfPlanInput): PerfPlan {
  return PerfPlanSchema.parse(input);
}

/**
 * Every feature with the extractions JMeter 2.13 has (regex, text, xml): a login whose token and sequence
 * number the next steps must carry, a text-extracted profile id in a URL, an xml-extracted reference,
 * all five authorization types, the assertion types, think time and a transaction rate.
 */
export function flowPlan(base: string, overrides: Partial<PerfPlanInput> = {}): PerfPlan {
  return plan({
    name: 'Checkout flow',
    concurrent_users: 2,
    duration: 1,
    urls: [
      {
        name: 'Login',
        method: 'POST',
        url: `${base}/api/login`,
        payload: '{"user":"u{{sequence_number,5}}"}',
        extractType: 'regex',
        extractName: 'token',
        extractValue: '"token":"([^"]+)"',
        assertionType: 'status',
        assertionValue: '200',
        thinkTime: '0',
      },
      {
        name: 'Profile',
        url: `${base}/api/profile`,
        parameters: [
          { key: 'seq', value: '{{sequence_number,5}}' },
          { key: '', value: 'blank keys are dropped' },
        ],
        authorization: { type: 'bearer', token: '{{token}}' },
        assertionType: 'text',
        assertionOperator: 'contains',
        assertionValue: '"name"',
        extractType: 'text',
        extractName: 'profileId',
        extractValue: '"id":"*"',
        thinkTime: '100ms',
      },
      {
        name: 'Save profile',
        method: 'PUT',
        url: `${base}/api/profiles/{{profileId}}`,
        headers: [
          { name: 'X-Session-Token', value: '{{token}}' },
          { name: 'X-Blank', value: '' },
        ],
        authorization: { type: 'api_key', keyName: API_KEY.name, keyValue: API_KEY.value },
        payload: '{"note":"n{{sequence_number,5}}"}',
        extractType: 'xml',
        extractName: 'ref',
        extractValue: '/result/ref',
        assertionType: 'xml',
        assertionPath: '/result/status',
        assertionValue: 'saved',
        thinkTime: '0',
      },
      {
        name: 'Reference',
        url: `${base}/api/refs/{{ref}}`,
        authorization: { type: 'basic', username: BASIC.username, password: BASIC.password },
        assertionType: 'status',
        assertionValue: '200',
        transactionRate: 50,
        thinkTime: '0.1',
      },
      {
        name: 'Secure',
        url: `${base}/api/secure`,
        authorization: oauth(base),
        assertionType: 'text',
        assertionOperator: 'regex',
        assertionValue: '"secure":\\s*true',
        thinkTime: '0',
      },
      {
        name: 'Ping',
        url: `${base}/api/ping`,
        authorization: { type: 'api_key', keyName: QUERY_KEY.name, keyValue: QUERY_KEY.value, in: 'query' },
        assertionType: 'status',
        assertionOperator: 'not_equals',
        assertionValue: '500',
        thinkTime: '0',
      },
    ],
    ...overrides,
  });
}

/** The same journey with JSON extraction and JSON assertions (JMeter 3+ only, so checked by structure there). */
export function jsonFlowPlan(base: string, overrides: Partial<PerfPlanInput> = {}): PerfPlan {
  return plan({
    name: 'JSON flow',
    concurrent_users: 2,
    duration: 1,
    urls: [
      {
        name: 'Login',
        method: 'POST',
        url: `${base}/api/login`,
        payload: '{"user":"u{{sequence_number,5}}"}',
        extractType: 'json',
        extractName: 'token',
        extractValue: '$.token',
        assertionType: 'json',
        assertionPath: '$.user',
        assertionOperator: 'regex',
        assertionValue: '^u\\d+$',
        thinkTime: '0',
      },
      {
        name: 'Profile',
        url: `${base}/api/profile`,
        parameters: [{ key: 'seq', value: '{{sequence_number,5}}' }],
        authorization: { type: 'bearer', token: '{{token}}' },
        extractType: 'json',
        extractName: 'profileId',
        extractValue: 'id',
        assertionType: 'json',
        assertionPath: "$['name']",
        assertionOperator: 'contains',
        assertionValue: 'User',
        thinkTime: '0',
      },
      {
        name: 'Save profile',
        method: 'PUT',
        url: `${base}/api/profiles/{{profileId}}`,
        headers: [{ name: 'X-Session-Token', value: '{{token}}' }],
        authorization: { type: 'api_key', keyName: API_KEY.name, keyValue: API_KEY.value },
        payload: '{"note":"n{{sequence_number,5}}"}',
        extractType: 'regex',
        extractName: 'ref',
        extractValue: '<ref>([^<]+)</ref>',
        assertionType: 'text',
        assertionOperator: 'equals',
        assertionValue: '<result><status>saved</status><ref>r-0</ref></result>',
        thinkTime: '0',
      },
      {
        name: 'Reference',
        url: `${base}/api/refs/{{ref}}`,
        authorization: { type: 'basic', username: BASIC.username, password: BASIC.password },
        assertionType: 'status',
        assertionOperator: 'regex',
        assertionValue: '^2\\d\\d$',
        transactionRate: '50',
        thinkTime: '0.2',
      },
      {
        name: 'Secure',
        url: `${base}/api/secure`,
        authorization: oauth(base),
        assertionType: 'json',
        assertionPath: '$.secure',
        assertionOperator: 'not_equals',
        assertionValue: 'false',
        thinkTime: '0',
      },
      {
        name: 'Ping',
        url: `${base}/api/ping`,
        authorization: { type: 'api_key', keyName: QUERY_KEY.name, keyValue: QUERY_KEY.value, in: 'query' },
        thinkTime: '0',
      },
    ],
    ...overrides,
  });
}

/** Text that would break a script or run code if any generator pasted it instead of serialising it. */
export const NASTY = {
  body: [
    `"double" 'single' <tag attr="x"> & ${'${__time()}'} ${'${__groovy(System.exit(1))}'} $\${x} $$\${y}`,
    `{{ not a template }} {{sequence_number}} \\ back\\slash \\n \\u000a """ ''' */ </script> \u2028 \u2029 end$`,
    'é 日本 \ttab ${=new File("/tmp/x").text}',
  ].join('\n'),
  header: `"d" 'q' <a&b> \${__time()} $\${x} {{ nope }} \\ """ ''' end$`,
  query: `a&b=c "q" \${__time()} {{ x }} \\ é end$`,
};

/** One request that carries NASTY in a query value, a header and the body; the target echoes. */
export function escapingPlan(base: string): PerfPlan {
  return plan({
    name: 'Escaping',
    concurrent_users: 1,
    duration: 1,
    urls: [
      {
        name: `Echo "${NASTY.header}"`,
        method: 'POST',
        url: `${base}/api/echo/cost$5'a`,
        parameters: [{ key: 'q', value: NASTY.query }],
        headers: [
          { name: 'X-Nasty', value: NASTY.header },
          { name: 'Content-Type', value: 'text/plain; charset=utf-8' },
        ],
        payload: NASTY.body,
        thinkTime: '0',
      },
      {
        name: 'Must fail its assertion',
        url: `${base}/api/ping?api_key=${QUERY_KEY.value}`,
        assertionType: 'text',
        assertionOperator: 'equals',
        assertionValue: 'not the body',
        thinkTime: '0',
      },
    ],
  });
}

/** The nastiest text in every field a generator writes, where no tool has to send it (static checks). */
export function escapingStaticPlan(base: string): PerfPlan {
  // The model refuses a line break in a plan name (docs/design.md §11); a generator handed one must
  // still escape it, so it is put back after the parse.
  return { ...escapingStaticPlanParsed(base), name: 'Nasty\nname */ """ ${__time()} </x>' };
}

function escapingStaticPlanParsed(base: string): PerfPlan {
  return plan({
    name: 'Nasty name',
    concurrent_users: 1,
    duration: 1,
    urls: [
      {
        name: 'Line\nbreak """ \'\'\' */ ${__time()} {{ x }} \u2028',
        method: 'POST',
        url: `${base}/api/echo/"q"<a>&\${__time()}/{{a:b}}/\\/"""/$`,
        headers: [{ name: 'X-Nasty', value: NASTY.header }],
        payload: NASTY.body,
        extractType: 'regex',
        extractName: 'picked',
        extractValue: '"(\\w+)" ${__time()} \'\'\' """ \\n',
        assertionType: 'text',
        assertionOperator: 'equals',
        assertionValue: NASTY.body,
        thinkTime: '0',
      },
      {
        method: 'GET',
        url: `${base}/api/echo/{{picked}}$`,
        headers: [{ name: 'X-Dollar-Before-Variable', value: 'cost $$${{picked}}' }],
        assertionType: 'json',
        assertionPath: "$['a\"b']",
        assertionValue: 'x\'y"z ${__time()}',
        thinkTime: '0',
      },
    ],
  });
}

/**
 * json assertions whose expected values are JSON literals (docs/design.md §4 "JSON literals"): a quoted
 * string, an integer written with a fraction, a decimal with a trailing zero (not_equals), true, null,
 * and bare text for comparison; all against `${base}/user`.
 */
export function jsonLiteralsPlan(base: string): PerfPlan {
  const entry = (assertionPath: string, assertionValue: string, op: 'equals' | 'not_equals' = 'equals') => ({
    url: `${base}/user`,
    thinkTime: '0',
    assertionType: 'json' as const,
    assertionPath,
    assertionValue,
    assertionOperator: op,
  });
  return plan({
    name: 'literals',
    urls: [
      entry('$.name', '"ada"'),
      entry('$.count', '10.0'),
      entry('$.price', '10.50', 'not_equals'),
      entry('$.ok', 'true'),
      entry('$.gone', 'null'),
      entry('$.name', 'ada'),
    ],
  });
}

/**
 * Flows with weights (docs/adr/0027-load-profiles.md "Flows"): a browse flow of two calls (weight 3), a
 * search flow of one (weight 1), the calls interleaved in the plan so a flow's order is the plan's.
 */
export function weightedFlowsPlan(base: string, overrides: Partial<PerfPlanInput> = {}): PerfPlan {
  return plan({
    name: 'Weighted flows',
    concurrent_users: 2,
    duration: 1,
    flows: [
      { name: 'browse', weight: 3 },
      { name: 'search', weight: 1 },
    ],
    urls: [
      { name: 'Home', url: `${base}/api/echo/home`, thinkTime: '0', flow: 'browse' },
      { name: 'Search', url: `${base}/api/echo/search`, thinkTime: '0', flow: 'search' },
      { name: 'Item', url: `${base}/api/echo/item`, thinkTime: '0', flow: 'browse' },
    ],
    ...overrides,
  });
}
