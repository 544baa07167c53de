import {
  HeaderSchema,
  HTTP_METHODS,
  type HttpMethod,
  MAX_DURATION_MIN,
  MAX_TIMEOUT_S,
  MAX_USERS,
  MIN_DURATION_MIN,
  MIN_TIMEOUT_S,
  MIN_USERS,
  type PerfPlan,
  PLAN_ERRORS,
  withProfileTotals,
  type Tool,
  TOOLS,
  transactionRatePercent,
} from './perf-plan';
import { parseThinkTimeMs, thinkTimeProblem } from './think-time';
import { FUNCTIONAL_BOUNDS, FUNCTIONAL_PLAN_ERRORS, type FunctionalPlan } from './functional/functional-plan';
import { runsInBrowser } from './test-kind';
import type { LoadProfile } from './load-profile';
import {
  isProfileClause,
  parseProfileClause,
  profileChangeText,
  type ProfileBase,
} from './text-command-profile';

/**
 * Plan edits by text command (docs/reference/01-authoring.md §2 text-command panel, §3 "Text-command response", §7
 * update-test-plan-command). A small deterministic parser, shared by the panel, the server and the
 * assistant (docs/design.md §5, §10): a command is split into clauses ("and", ",", ";", "then", "그리고", a
 * Korean verb's "-고"), each clause names one change in English or Korean — one that names two is refused,
 * not half read — and every value is checked against the model's bounds. A value may be relative to the
 * plan's own, per API for per-API settings ("double the users", "add 2s of think time", "사용자 두 배").
 * Performance plans are read by
 * `parseTextCommand`; functional plans by `parseFunctionalTextCommand`, which reads the same clauses and maps
 * them onto the functional model's fields and bounds. Pure and browser-safe.
 */

/** Where a change applies: the plan itself, every API, or one API by its 0-based index in plan.urls. */
export type TextCommandScope = 'plan' | 'all' | { api: number };

export type TextCommandField =
  | 'name'
  | 'tool'
  | 'concurrent_users'
  | 'duration'
  | 'thinkTime'
  | 'timeout'
  | 'transactionRate'
  | 'method'
  | 'addHeader'
  | 'removeHeader'
  | 'bearerToken'
  | 'removeApi'
  | 'loadProfile';

export interface HeaderValue {
  name: string;
  value: string;
}

/**
 * One understood change. Values carry their unit in the model's terms: duration in minutes, timeout in
 * seconds, think time as the model's text ("2s", "1500ms"), transaction rate in percent.
 */
export type ParsedUpdate =
  | { field: 'name'; value: string; scope: 'plan' }
  | { field: 'tool'; value: Tool; scope: 'plan' }
  | { field: 'concurrent_users' | 'duration'; value: number; scope: 'plan' }
  | { field: 'thinkTime'; value: string; scope: ApiScope }
  | { field: 'timeout' | 'transactionRate'; value: number; scope: ApiScope }
  | { field: 'method'; value: HttpMethod; scope: ApiScope }
  | { field: 'addHeader'; value: HeaderValue; scope: ApiScope }
  | { field: 'removeHeader'; value: string; scope: ApiScope }
  | { field: 'bearerToken'; value: string; scope: ApiScope }
  | { field: 'removeApi'; value: true; scope: { api: number } }
  /** The whole new load profile ("ramp up over 2 minutes", "add a spike to 500 users"). */
  | { field: 'loadProfile'; value: LoadProfile; scope: 'plan' };

type ApiScope = 'all' | { api: number };

export interface TextCommandResult {
  updates: ParsedUpdate[];
  /** One message per clause that was not understood or whose value is out of bounds. */
  errors: string[];
}

/** Shown with every error, so the user sees what the parser does understand. */
export const TEXT_COMMAND_EXAMPLES = [
  'set think time to 2s for all APIs',
  'set users to 50',
  'set duration to 10 minutes',
  'use JMeter',
  'timeout 10s for API 2',
  'make API 2 a POST',
  'add header X-Env: staging to all APIs',
  'rename plan to Checkout',
  'ramp up over 2 minutes',
  'add a spike to 500 users',
] as const;

export const TEXT_COMMAND_MESSAGES = {
  empty: 'Type a command, for example "set think time to 2s for all APIs".',
  tryExamples: `Try: ${TEXT_COMMAND_EXAMPLES.map((example) => `"${example}"`).join(', ')}.`,
} as const;

const MAX_COMMAND_LENGTH = 2000;

const TIMEOUT_RANGE = `Timeout must be a whole number of seconds from ${MIN_TIMEOUT_S} to ${MAX_TIMEOUT_S}`;

const NOTHING_READ = { carried: undefined, startsWithValue: false, seen: undefined } as const;

/** A stored think time the model refused cannot be read; a relative change then starts from 0. */
function thinkTimeMsOr0(text: string): number {
  return thinkTimeProblem(text) === undefined ? parseThinkTimeMs(text) : 0;
}

/*
 * Clauses are joined by ";", ",", " & ", "and", "then", "and then", "그리고 (나서)", "그 다음(에)", "및", and a
 * Korean verb's connective ending "-고" ("늘리고", "바꾸고", "설정하고"): the ending stays with its clause,
 * whose verb it is. Nouns that end in 고 ("재고", "최고") are not verbs of this list and are not split.
 */
const CLAUSE_SEPARATOR =
  /\s*(?:;|,|\s&\s|\band\s+then\b|\band\b|\bthen\b|그리고(?:\s*나서)?|그(?:런)?\s*다음(?:에)?|(?<!\S)및(?!\S))\s*/iu;
const KOREAN_AND = /(?<=(?:하|리|이|꾸|올|내|넣|빼|두|들|주|우|추)고)\s+(?=\S)/u;
const NUMBER = String.raw`(\d+(?:\.\d+)?|\.\d+)`;
// A number must not run into letters or digits ("5o users" is not 5 users, "k6" holds no 6); Korean
// units may follow.
const START = String.raw`(?<![a-z0-9.])`;
const END = String.raw`(?![a-z0-9.])`;

/**
 * Reads a command against a plan (the plan gives the API count and names). Nothing is partial: when
 * `errors` is not empty the caller must apply nothing, unless it shows the user what will and will not
 * be applied first (James's preview, docs/design.md §10).
 */
export function parseTextCommand(command: string, plan: PerfPlan): TextCommandResult {
  const context: ReadContext = {
    ...NOTHING_READ,
    apiNames: plan.urls.map((entry) => entry.name ?? ''),
    apis: plan.urls.map((entry) => ({
      thinkTimeMs: thinkTimeMsOr0(entry.thinkTime),
      timeoutS: entry.timeout,
      ratePercent: transactionRatePercent(entry.transactionRate),
    })),
    users: { current: plan.concurrent_users, min: MIN_USERS, max: MAX_USERS, range: PLAN_ERRORS.usersRange },
    duration: {
      current: plan.duration,
      min: MIN_DURATION_MIN,
      max: MAX_DURATION_MIN,
      range: PLAN_ERRORS.durationRange,
    },
    iterations: undefined,
    timeout: { current: 0, min: MIN_TIMEOUT_S, max: MAX_TIMEOUT_S, range: TIMEOUT_RANGE },
    profile: { profile: plan.load_profile, users: plan.concurrent_users, minutes: plan.duration },
  };
  const read = readCommand(command, context);
  const updates: ParsedUpdate[] = [];
  const errors = [...read.errors];
  for (const { update, clause } of read.clauses) {
    if (update.field === 'iterations') errors.push(performanceHasNoIterations(clause));
    // A load profile's stages set the users and the length (withProfileTotals): a change to either
    // would be taken back on save, so it is refused in words rather than lost.
    else if (
      plan.load_profile !== undefined &&
      (update.field === 'concurrent_users' || update.field === 'duration')
    )
      errors.push(profileSetsTheLoad(clause));
    else updates.push(update);
  }
  const removalProblem = removesEveryApi(updates, plan.urls.length);
  if (!removalProblem) return { updates, errors };
  // What is read is never a plan without APIs, even for a caller that applies the understood part.
  return { updates: updates.filter((u) => u.field !== 'removeApi'), errors: [...errors, removalProblem] };
}

function profileSetsTheLoad(clause: string): string {
  return `This plan has a load profile: its stages set the users and the duration; change them in the editor's Load profile: "${clause}".`;
}

function performanceHasNoIterations(clause: string): string {
  return `A performance plan runs for a duration, not a number of iterations: "${clause}".`;
}

/** A change read from one clause; iterations exist only in functional plans. */
type ClauseUpdate = ParsedUpdate | { field: 'iterations'; value: number; scope: 'plan' };

/** What the clauses are read against: the plan's API names and its current settings with their bounds. */
interface ReadContext {
  apiNames: readonly string[];
  /** Each API's own settings, which a relative change ("add 2s of think time") starts from. */
  apis: readonly ApiSettings[];
  users: Setting;
  /** Minutes. */
  duration: Setting;
  /** Absent for a plan that has no iterations. */
  iterations: Setting | undefined;
  /** Seconds. */
  timeout: Setting;
  /** The load a profile change starts from (the clauses before included); absent for a functional plan. */
  profile: ProfileBase | undefined;
  /** How the clause before changed its setting, for one that goes on from it ("… and the duration by 5"). */
  carried: Relative | undefined;
  /** Whether the clause being read starts with its value ("5 minutes"), as a continued clause does. */
  startsWithValue: boolean;
  /** How the clause being read changes its setting, once a parser has read it. */
  seen: Relative | undefined;
}

interface ApiSettings {
  thinkTimeMs: number;
  timeoutS: number;
  /** Percent; a blank rate runs the API every time (100). */
  ratePercent: number;
}

interface Setting {
  current: number;
  min: number;
  max: number;
  /** The model's message for a value out of bounds. */
  range: string;
}

function readCommand(
  command: string,
  context: ReadContext,
): { clauses: { update: ClauseUpdate; clause: string }[]; errors: string[] } {
  const trimmed = command.trim();
  if (trimmed === '') return { clauses: [], errors: [TEXT_COMMAND_MESSAGES.empty] };
  if (trimmed.length > MAX_COMMAND_LENGTH) {
    return { clauses: [], errors: [`A command may be at most ${MAX_COMMAND_LENGTH} characters long.`] };
  }
  const clauses = splitClauses(trimmed);
  if (clauses.length === 0) return { clauses: [], errors: [TEXT_COMMAND_MESSAGES.empty] };
  const read: { update: ClauseUpdate; clause: string }[] = [];
  const errors: string[] = [];
  for (const clause of clauses) {
    context.carried = context.seen;
    context.seen = undefined;
    context.startsWithValue = STARTS_WITH_VALUE.test(clause);
    const result = parseClause(clause, context);
    if (typeof result === 'string') errors.push(result);
    else
      for (const update of [result].flat()) {
        read.push({ update, clause });
        // "ramp up over 2 minutes and add a spike to 500 users": the spike goes on from the ramp.
        if (update.field === 'loadProfile' && context.profile) context.profile.profile = update.value;
      }
  }
  return { clauses: read, errors };
}

/** "5 minutes", "another 10 users", "by 2s": a clause that goes on from the one before. */
const STARTS_WITH_VALUE = /^(?:(?:the|another|and)\s+)?[+]?(?:\d|\.\d)/iu;

function removesEveryApi(updates: readonly { field: string; scope: unknown }[], apiCount: number) {
  const removed = new Set(
    updates.flatMap((u) =>
      u.field === 'removeApi' && typeof u.scope === 'object' && u.scope !== null
        ? [(u.scope as { api: number }).api]
        : [],
    ),
  );
  return removed.size > 0 && removed.size >= apiCount
    ? 'A plan keeps at least one API: this command would remove them all.'
    : undefined;
}

/**
 * The plan with the updates applied; the input is not changed. API indices refer to the plan as it was
 * read, so removals run last, from the highest index down.
 */
export function applyTextCommand(plan: PerfPlan, updates: readonly ParsedUpdate[]): PerfPlan {
  const next = JSON.parse(JSON.stringify(plan)) as PerfPlan;
  const removals: number[] = [];
  for (const update of updates) {
    switch (update.field) {
      case 'name':
        next.name = update.value;
        break;
      case 'tool':
        next.tool = update.value;
        break;
      case 'concurrent_users':
        next.concurrent_users = update.value;
        break;
      case 'duration':
        next.duration = update.value;
        break;
      case 'loadProfile':
        next.load_profile = update.value;
        break;
      case 'removeApi':
        removals.push(update.scope.api);
        break;
      default:
        for (const entry of entriesIn(next, update.scope)) applyToEntry(entry, update);
    }
  }
  for (const index of [...new Set(removals)].sort((a, b) => b - a)) next.urls.splice(index, 1);
  // A profile sets the users and the minutes (docs/adr/0027-load-profiles.md "As built").
  return withProfileTotals(next);
}

/** "think time 2s for all APIs", in the words the panel lists applied changes with. */
export function describeUpdate(update: ParsedUpdate): string {
  const where =
    update.scope === 'plan'
      ? ''
      : update.scope === 'all'
        ? ' for all APIs'
        : ` for API ${update.scope.api + 1}`;
  switch (update.field) {
    case 'name':
      return `plan name → "${update.value}"`;
    case 'tool':
      return `tool → ${update.value}`;
    case 'concurrent_users':
      return `concurrent users → ${update.value}`;
    case 'duration':
      return `duration → ${update.value} min`;
    case 'thinkTime':
      return `think time → ${update.value}${where}`;
    case 'timeout':
      return `timeout → ${update.value}s${where}`;
    case 'transactionRate':
      return `transaction rate → ${update.value}%${where}`;
    case 'method':
      return `method → ${update.value}${where}`;
    case 'addHeader':
      return `header ${update.value.name}: ${update.value.value} added${where}`;
    case 'removeHeader':
      return `header ${update.value} removed${where}`;
    case 'bearerToken':
      return `bearer token set${where}`;
    case 'removeApi':
      return `API ${update.scope.api + 1} removed`;
    case 'loadProfile':
      return `load profile → ${profileChangeText(update.value)}`;
  }
}

/** The success message: "Applied 2 changes: concurrent users → 50; duration → 10 min". */
export function textCommandMessage(updates: readonly ParsedUpdate[]): string {
  const count = updates.length === 1 ? '1 change' : `${updates.length} changes`;
  return `Applied ${count}: ${updates.map(describeUpdate).join('; ')}`;
}

/** The error message: what was not understood, then examples. */
export function textCommandErrorMessage(errors: readonly string[]): string {
  return `${errors.join(' ')} ${TEXT_COMMAND_MESSAGES.tryExamples}`;
}

function splitClauses(command: string): string[] {
  return command
    .split(CLAUSE_SEPARATOR)
    .flatMap((clause) => clause.split(KOREAN_AND))
    .map((clause) => clause.trim().replace(/[.!?]+$/u, ''))
    .filter((clause) => clause !== '');
}

type UrlEntryOf = PerfPlan['urls'][number];

function entriesIn(plan: PerfPlan, scope: ApiScope): UrlEntryOf[] {
  if (scope === 'all') return plan.urls;
  const entry = plan.urls[scope.api];
  return entry ? [entry] : [];
}

function applyToEntry(entry: UrlEntryOf, update: ParsedUpdate): void {
  switch (update.field) {
    case 'thinkTime':
      entry.thinkTime = update.value;
      break;
    case 'timeout':
      entry.timeout = update.value;
      break;
    case 'transactionRate':
      entry.transactionRate = update.value;
      break;
    case 'method':
      entry.method = update.value;
      break;
    case 'addHeader': {
      const name = update.value.name.toLowerCase();
      const others = entry.headers.filter((header) => header.name.toLowerCase() !== name);
      entry.headers = [...others, { ...update.value }];
      break;
    }
    case 'removeHeader': {
      const name = update.value.toLowerCase();
      entry.headers = entry.headers.filter((header) => header.name.toLowerCase() !== name);
      break;
    }
    case 'bearerToken':
      entry.authorization = { ...entry.authorization, type: 'bearer', token: update.value };
      break;
    default:
      break;
  }
}

// ---- Clauses ----

interface Scoped {
  /** The clause without its scope words. */
  rest: string;
  scope: ApiScope | undefined;
}

const ALL_APIS =
  /\s*(?:(?:for|on|to|in|of|from|across)\s+)?(?:all|every|each)(?:\s+(?:the|of\s+the))?\s+(?:apis?|endpoints?|requests?|calls?|steps?)\b|\s*(?:모든|전체|각)\s*(?:api|엔드포인트|요청|호출)(?:에서|에게|에|의|를|을|은|는)?/giu;
const ONE_API =
  /\s*(?:(?:for|on|to|in|of|from)\s+)?(?:the\s+)?(?:api|endpoint|request|step|call)\s*(?:#|no\.?\s*|number\s*)?(\d+)(?:번)?(?:에서|에게|에|의|를|을|은|는)?|\s*(\d+)\s*번(?:째)?\s*(?:api|엔드포인트|요청|호출)(?:에서|에게|에|의|를|을|은|는)?/giu;
const API_WORD = String.raw`(?:api|endpoint|request|step|call)`;
const PARTICLE = String.raw`(?:에서|에게|에|의|를|을|은|는)?`;
/** An API by name: API "Login", API named Login, "Login" API, for the Login API, to the login call, Login 호출에. */
const NAMED_API = new RegExp(
  [
    String.raw`\s*(?:(?:for|on|to|in|of|from)\s+)?(?:the\s+)?${API_WORD}\s+(?:named\s+|called\s+)?(?:"([^"]+)"|'([^']+)')${PARTICLE}`,
    String.raw`\s*(?:(?:for|on|to|in|of|from)\s+)?(?:the\s+)?${API_WORD}\s+(?:named|called)\s+([^\s"']+)`,
    String.raw`\s*(?:(?:for|on|to|in|of|from)\s+)?(?:the\s+)?(?:"([^"]+)"|'([^']+)')\s*${API_WORD}${PARTICLE}`,
    String.raw`\s*(?:(?:for|on|to|in|of|from)\s+the\s+|(?<![a-z])the\s+)([^\s"'\d][^\s"']*)\s+${API_WORD}(?![a-z])`,
    // Korean puts the name first and needs a particle after the API word: "Login 호출에", "Login API의".
    String.raw`(?<!\S)([^\s"'\d][^\s"']*?)\s*(?:api|호출|요청|엔드포인트)(?:에서|에게|에|의|를|을|은|는)(?!\S)`,
  ].join('|'),
  'giu',
);

/** Finds "for all APIs", "on API 2", "API \"Login\"", "2번 API" and takes them out of the clause. */
function extractScope(clause: string, apiNames: readonly string[]): Scoped | string {
  const found: ApiScope[] = [];
  let rest = clause.replace(ALL_APIS, () => {
    found.push('all');
    return ' ';
  });
  let problem: string | undefined;
  rest = rest.replace(NAMED_API, (_match: string, ...groups: unknown[]) => {
    const name = String(groups.slice(0, 7).find((group) => typeof group === 'string') ?? '').trim();
    const index = apiNames.findIndex((apiName) => apiName.trim().toLowerCase() === name.toLowerCase());
    if (index === -1) problem ??= `There is no API named "${name}" in this plan.`;
    else found.push({ api: index });
    return ' ';
  });
  rest = rest.replace(ONE_API, (_match, english: string | undefined, korean: string | undefined) => {
    const number = Number(english ?? korean);
    const count = apiNames.length;
    if (!Number.isInteger(number) || number < 1 || number > count) {
      problem ??= `API ${number} does not exist: this plan has ${count === 1 ? '1 API' : `${count} APIs`} (1–${count}).`;
    } else {
      found.push({ api: number - 1 });
    }
    return ' ';
  });
  if (problem !== undefined) return problem;
  if (found.length > 1) return `"${clause}" names more than one set of APIs; give one change per API.`;
  return { rest: rest.replace(/\s+/g, ' ').trim(), scope: found[0] };
}

/** A clause's change; a relative change to APIs whose values differ is one change per API. */
type ClauseParser = (
  text: string,
  scoped: Scoped,
  clause: string,
  context: ReadContext,
) => ClauseUpdate | ClauseUpdate[] | string | undefined;

function parseClause(clause: string, context: ReadContext): ClauseUpdate | ClauseUpdate[] | string {
  // A new name is taken as written, even when it holds words like "API 2".
  const renamed = parseRename(clause, { rest: clause, scope: undefined }, clause, context);
  if (renamed !== undefined) return renamed;
  const scoped = extractScope(clause, context.apiNames);
  if (typeof scoped === 'string') return scoped;
  for (const parser of CLAUSE_PARSERS) {
    const result = parser(scoped.rest, scoped, clause, context);
    if (result === undefined) continue;
    if (typeof result === 'string') return result;
    const field = [result].flat()[0]?.field;
    return field !== undefined && namesAnotherSetting(field, scoped.rest)
      ? moreThanOneChange(clause)
      : result;
  }
  return `"${clause}" was not understood.`;
}

export function moreThanOneChange(clause: string): string {
  return `"${clause}" holds more than one change: join them with "and", a comma or "그리고".`;
}

function planOnly(scoped: Scoped, what: string, clause: string): string | undefined {
  return scoped.scope === undefined
    ? undefined
    : `${what} applies to the whole plan, not to APIs: "${clause}".`;
}

function quoted(text: string): string {
  const trimmed = text.trim();
  const match = /^(["'“‘])(.*)(["'”’])$/u.exec(trimmed);
  return match ? (match[2] ?? '').trim() : trimmed;
}

const RENAME =
  /^(?:(?:please\s+)?rename\s+(?:the\s+)?(?:test\s+)?(?:plan\s+|test\s+)?(?:to|as)|(?:set|change)\s+(?:the\s+)?(?:plan\s+|test\s+)?name\s+(?:to|as)|(?:plan|test)\s+name\s*(?:to|:|=)?|name\s+(?:the\s+)?(?:plan|test))\s+(.+)$/iu;
const RENAME_KO =
  /^(?:(?:플랜|계획|테스트|테스트\s*플랜)\s*)?이름(?:을|를|은)?\s+(.+?)\s*(?:으로|로)?\s*(?:변경|바꿔|바꾸기|바꾸어|설정|지정)?(?:해\s*줘|해줘|해|하기|줘)?$/u;

const parseRename: ClauseParser = (text, scoped, clause) => {
  const match = RENAME.exec(text) ?? RENAME_KO.exec(text);
  if (!match) return undefined;
  const wrong = planOnly(scoped, 'The plan name', clause);
  if (wrong) return wrong;
  const name = quoted(match[1] ?? '');
  if (name === '') return PLAN_ERRORS.nameRequired;
  if (name.length > 200) return 'A plan name may be at most 200 characters long.';
  return { field: 'name', value: name, scope: 'plan' };
};

const HEADER_ADD =
  /^(?:(?:add|set|include|put)\s+(?:a\s+|the\s+)?(?:request\s+)?header|header|헤더(?:를|에)?)\s+([^\s:=]+)\s*[:=]\s*(.*?)\s*(?:추가(?:해\s*줘|해줘|해|하기)?|설정(?:해\s*줘|해줘|해)?)?$/iu;
const HEADER_REMOVE =
  /^(?:(?:remove|delete|drop)\s+(?:the\s+)?(?:request\s+)?header\s+([^\s:=]+)|헤더\s+([^\s:=]+?)(?:를|을)?\s*(?:삭제|제거)(?:해\s*줘|해줘|해|하기)?)$/iu;

const parseHeader: ClauseParser = (text, scoped) => {
  const removal = HEADER_REMOVE.exec(text);
  if (removal) {
    const name = (removal[1] ?? removal[2] ?? '').trim();
    return { field: 'removeHeader', value: name, scope: scoped.scope ?? 'all' };
  }
  const match = HEADER_ADD.exec(text);
  if (!match) return undefined;
  const header = HeaderSchema.safeParse({ name: match[1] ?? '', value: quoted(match[2] ?? '') });
  if (!header.success) return header.error.issues[0]?.message ?? 'The header is not valid.';
  if (header.data.name === '') return 'Name the header, e.g. "add header X-Env: staging".';
  return { field: 'addHeader', value: header.data, scope: scoped.scope ?? 'all' };
};

const BEARER =
  /^(?:(?:set|use|add)\s+(?:the\s+|a\s+)?)?(?:bearer\s+token|bearer|auth(?:orization)?\s+token|token|베어러\s*토큰|베어러|토큰)(?:\s+to)?(?:을|를)?\s+(\S+?)(?:으로|로)?\s*(?:설정(?:해\s*줘|해줘|해)?|사용(?:해\s*줘|해줘|해)?)?$/iu;

const parseBearer: ClauseParser = (text, scoped) => {
  const match = BEARER.exec(text);
  if (!match) return undefined;
  const token = quoted(match[1] ?? '');
  if (token === '') return 'Give the token, e.g. "set bearer token abc123 for all APIs".';
  if (token.length > 8192) return 'The token may be at most 8192 characters long.';
  return { field: 'bearerToken', value: token, scope: scoped.scope ?? 'all' };
};

const REMOVE_API = /^(?:remove|delete|drop)$|^(?:삭제|제거)(?:해\s*줘|해줘|해|하기)?$/iu;

const parseRemoveApi: ClauseParser = (text, scoped, clause) => {
  if (!REMOVE_API.test(text)) return undefined;
  if (scoped.scope === undefined || scoped.scope === 'all') {
    return `Say which API to remove, e.g. "remove API 2": "${clause}".`;
  }
  return { field: 'removeApi', value: true, scope: scoped.scope };
};

const THINK_TIME_WORDS = /think\s*-?\s*times?|pause|대기\s*시간|생각\s*시간|씽크\s*타임|싱크\s*타임/iu;
const TIME_VALUE = new RegExp(
  String.raw`${START}${NUMBER}\s*(ms|msecs?|millis(?:econds?)?|milliseconds?|s|secs?|seconds?|minutes?|mins?|hours?|hrs?|밀리초|초|분|시간)?${END}`,
  'iu',
);
/** "add a 200 ms think time" gives the think time; "add 200 ms of think time" adds to it. */
const ADD_A_VALUE = /(?<![a-z])(?:add|give|put|use)\s+an?\s+(?=\d|\.\d)/iu;

/** Milliseconds in one of a time value's units; a bare number is seconds. */
function unitMs(unit: string | undefined): number {
  const u = (unit ?? 's').toLowerCase();
  if (u === 'ms' || u.startsWith('msec') || u.startsWith('milli') || u === '밀리초') return 1;
  if (u.startsWith('min') || u === '분') return 60_000;
  if (u.startsWith('h') || u === '시간') return 3_600_000;
  return 1000;
}

/** A think time in milliseconds as the model writes it: "5s", "2.5s", "600ms". */
function thinkTimeText(ms: number): string {
  if (ms === 0) return '0s';
  return ms >= 1000 && ms % 100 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

const parseThinkTime: ClauseParser = (text, scoped, clause, context) => {
  if (!THINK_TIME_WORDS.test(text)) return undefined;
  const rest = text.replace(THINK_TIME_WORDS, ' ');
  const relative = ADD_A_VALUE.test(rest) ? undefined : relativeOf(rest, context, clause);
  if (typeof relative === 'string') return relative;
  const scope = scoped.scope ?? 'all';
  const update = (value: string, where: ApiScope): ClauseUpdate => ({
    field: 'thinkTime',
    value,
    scope: where,
  });
  if (relative?.kind === 'factor') {
    return perApi(
      scope,
      context,
      (api, number) => changedThinkTime(api.thinkTimeMs, relative, 0, number),
      update,
    );
  }
  const match = TIME_VALUE.exec(rest);
  if (!match) return 'Give the think time with a unit, e.g. "think time 2s" or "think time 1500ms".';
  const perUnit = unitMs(match[2]);
  const written = perUnit === 1 ? `${match[1] ?? ''}ms` : perUnit === 1000 ? `${match[1] ?? ''}s` : undefined;
  const amountMs = Number(match[1]) * perUnit;
  const value = written ?? thinkTimeText(amountMs);
  if (relative === undefined) {
    const problem = thinkTimeProblem(value);
    if (problem !== undefined) return problem;
    return update(formatThinkTime(value), scope);
  }
  if (!Number.isInteger(amountMs)) return thinkTimeProblem(value) ?? `"${clause}" was not understood.`;
  return perApi(
    scope,
    context,
    (api, number) => changedThinkTime(api.thinkTimeMs, relative, amountMs, number),
    update,
  );
};

/** An API's think time changed by an amount or a factor, or why it cannot be. */
function changedThinkTime(
  currentMs: number,
  relative: Relative,
  amountMs: number,
  apiNumber: number,
): string | { problem: string } {
  const ms =
    relative.kind === 'factor'
      ? Math.round(currentMs * relative.factor)
      : currentMs + relative.sign * amountMs;
  const sum = `API ${apiNumber}: ${sumOf(thinkTimeText(currentMs), relative, thinkTimeText(amountMs))}`;
  if (ms < 0) return { problem: `Think time cannot go below 0 (${sum} = −${thinkTimeText(-ms)}).` };
  const text = thinkTimeText(ms);
  const problem = thinkTimeProblem(text);
  return problem === undefined ? text : { problem: `${problem} (${sum} = ${text}).` };
}

/** "1500ms" stays as typed; seconds are written without trailing zeros ("1.50s" → "1.5s"). */
function formatThinkTime(value: string): string {
  if (value.endsWith('ms')) return value;
  return `${parseThinkTimeMs(value) / 1000}s`;
}

const TIMEOUT_WORDS = /time\s*-?\s*outs?|타임\s*아웃|제한\s*시간/iu;

const parseTimeout: ClauseParser = (text, scoped, clause, context) => {
  if (!TIMEOUT_WORDS.test(text)) return undefined;
  const rest = text.replace(TIMEOUT_WORDS, ' ');
  const relative = relativeOf(rest, context, clause);
  if (typeof relative === 'string') return relative;
  const scope = scoped.scope ?? 'all';
  const update = (value: number, where: ApiScope): ClauseUpdate => ({
    field: 'timeout',
    value,
    scope: where,
  });
  const setting = context.timeout;
  const changed = (amount: number) => (api: ApiSettings, number: number) => {
    const settled = settle({ ...setting, current: api.timeoutS }, relative, amount, `API ${number}`);
    return typeof settled === 'string' ? { problem: settled } : settled.value;
  };
  if (relative?.kind === 'factor') return perApi(scope, context, changed(0), update);
  const match = TIME_VALUE.exec(rest);
  if (!match) return `Give the timeout in seconds, e.g. "timeout 10s". ${setting.range}`;
  const seconds = (Number(match[1]) * unitMs(match[2])) / 1000;
  if (!Number.isInteger(seconds)) return setting.range;
  return perApi(scope, context, changed(seconds), update);
};

const RATE_WORDS =
  /transaction\s*rate|(?<![a-z])rate(?![a-z])|트랜잭션\s*비율|트랜잭션\s*비중|실행\s*비율|비율/iu;
const PERCENT_VALUE = new RegExp(String.raw`${START}${NUMBER}\s*(?:%|percent|퍼센트|프로)?${END}`, 'iu');
const RATE_RANGE = 'Transaction rate must be a percent from 0 to 100';

const parseTransactionRate: ClauseParser = (text, scoped, clause, context) => {
  if (!RATE_WORDS.test(text)) return undefined;
  const rest = text.replace(RATE_WORDS, ' ');
  const relative = relativeOf(rest, context, clause);
  if (typeof relative === 'string') return relative;
  const scope = scoped.scope ?? 'all';
  const update = (value: number, where: ApiScope): ClauseUpdate => ({
    field: 'transactionRate',
    value,
    scope: where,
  });
  const changed = (amount: number) => (api: ApiSettings, number: number) => {
    if (relative === undefined) return amount;
    const made =
      relative.kind === 'factor'
        ? api.ratePercent * relative.factor
        : api.ratePercent + relative.sign * amount;
    const rate = Math.round(made * 100) / 100;
    return rate < 0 || rate > 100
      ? { problem: `${RATE_RANGE} (API ${number}: ${sumOf(api.ratePercent, relative, amount)} = ${rate}).` }
      : rate;
  };
  if (relative?.kind === 'factor') return perApi(scope, context, changed(0), update);
  const match = PERCENT_VALUE.exec(rest);
  if (!match) return `Give the transaction rate in percent, e.g. "transaction rate 50% for API 3".`;
  const rate = Number(match[1]);
  if (!Number.isFinite(rate) || rate < 0 || rate > 100) return RATE_RANGE;
  return perApi(scope, context, changed(rate), update);
};

const USERS_WORDS =
  /(?<![a-z])(?:(?:concurrent\s+|virtual\s+)?users?|vus?|concurrency)(?![a-z])|동시\s*사용자(?:\s*수)?|사용자(?:\s*수)?|유저(?:\s*수)?|가상\s*사용자/iu;
const COUNT_VALUE = new RegExp(String.raw`${START}${NUMBER}\s*(?:명|users?|vus?)?${END}`, 'iu');

// ---- Relative values: "double the users", "users x2", "increase users by 10", "사용자 두 배", "10명 늘려" ----

type Relative = { kind: 'factor'; factor: number } | { kind: 'delta'; sign: 1 | -1 };

const FACTOR_WORDS: readonly (readonly [RegExp, number])[] = [
  [/(?<![a-z])(?:double|twice)(?![a-z])|두\s*배/iu, 2],
  [/(?<![a-z])(?:triple|thrice)(?![a-z])|세\s*배/iu, 3],
  [/(?<![a-z])quadruple(?![a-z])|네\s*배/iu, 4],
  [/(?<![a-z])(?:halve|half)(?![a-z])|절반|반으로/iu, 0.5],
];
const FACTOR_NUMBER = new RegExp(
  String.raw`(?:^|\s)[x×*]\s*${NUMBER}${END}|${NUMBER}\s*(?:x|×|times)(?![a-z])|${NUMBER}\s*배`,
  'iu',
);
/** An absolute value is set "to" a number, even with an increase word ("increase users to 50", "10초로 늘려"). */
const TO_NUMBER = new RegExp(
  String.raw`(?<![a-z])to\s+${NUMBER}|${NUMBER}\s*(?:명|분|회|번|초|밀리초|시간|ms|s|%|퍼센트)?\s*(?:으로|로)(?![가-힣])`,
  'iu',
);
const INCREASE =
  /(?<![a-z])(?:increase|raise|add|bump|more|plus|extend|lengthen)(?![a-z])|\+\s*\d|늘려|늘리|늘림|증가|추가|더/iu;
const DECREASE =
  /(?<![a-z])(?:decrease|reduce|lower|cut|fewer|less|minus|remove|shorten)(?![a-z])|(?<!\S)-\s*\d|줄여|줄이|줄임|감소|빼/iu;
/** "by 5" says an amount of change without its direction, which the clause before may have given. */
const BY_AMOUNT = /(?<![a-z])by\s+[+]?(?:\d|\.\d)/iu;

/**
 * How a clause changes a setting relative to its current value: undefined when it sets it, a string when
 * it gives an amount ("by 5") without saying which way. A clause that goes on from a relative one ("increase
 * users by 10 and the duration by 5 minutes", "add 10 users and 5 minutes", "double the users and the
 * duration") changes its setting the same way.
 */
function relativeOf(text: string, context: ReadContext, clause: string): Relative | undefined | string {
  const own = ownRelativeOf(text);
  if (own === 'set') return undefined;
  const carried = context.carried;
  const goesOn =
    carried !== undefined &&
    (carried.kind === 'delta'
      ? BY_AMOUNT.test(text) || context.startsWithValue
      : !/\d/u.test(text) && !/(?<![a-z])(?:set|change|make)(?![a-z])/iu.test(text));
  const relative = own ?? (goesOn ? carried : undefined);
  if (relative === undefined && BY_AMOUNT.test(text)) {
    return `Say whether to increase or decrease: "${clause}".`;
  }
  context.seen = relative;
  return relative;
}

function ownRelativeOf(text: string): Relative | 'set' | undefined {
  for (const [words, factor] of FACTOR_WORDS) {
    if (words.test(text)) return { kind: 'factor', factor };
  }
  const times = FACTOR_NUMBER.exec(text);
  if (times) {
    return { kind: 'factor', factor: Number(times[1] ?? times[2] ?? times[3]) };
  }
  if (TO_NUMBER.test(text)) return 'set';
  if (DECREASE.test(text)) return { kind: 'delta', sign: -1 };
  if (INCREASE.test(text)) return { kind: 'delta', sign: 1 };
  return undefined;
}

/**
 * The new value of a setting, checked against its bounds; a relative change out of bounds says what it
 * would have made ("double the users" with 80 users: 160).
 */
function settle(
  setting: Setting,
  relative: Relative | undefined,
  amount: number,
  /** Names the API whose value it is, in the message ("API 2"). */
  label?: string,
): { value: number } | string {
  const value =
    relative === undefined
      ? amount
      : relative.kind === 'factor'
        ? Math.round(setting.current * relative.factor)
        : setting.current + relative.sign * amount;
  if (!Number.isInteger(value) || value < setting.min || value > setting.max) {
    if (relative === undefined) return setting.range;
    const where = label === undefined ? '' : `${label}: `;
    return `${setting.range} (${where}${sumOf(setting.current, relative, amount)} = ${value}).`;
  }
  return { value };
}

/** "600 × 2", "10 − 10": how a relative value was made, as an error message shows it. */
function sumOf(current: number | string, relative: Relative, amount: number | string): string {
  return relative.kind === 'factor'
    ? `${current} × ${relative.factor}`
    : `${current} ${relative.sign > 0 ? '+' : '−'} ${amount}`;
}

/**
 * A setting of each API in scope, set or changed relative to each API's own value. The APIs of "all"
 * that end with one value get one change for all; otherwise each gets its own.
 */
function perApi<T extends number | string>(
  scope: ApiScope,
  context: ReadContext,
  valueOf: (api: ApiSettings, number: number) => T | { problem: string },
  update: (value: T, scope: ApiScope) => ClauseUpdate,
): ClauseUpdate | ClauseUpdate[] | string {
  const indices = scope === 'all' ? context.apis.map((_, index) => index) : [scope.api];
  const values: T[] = [];
  for (const index of indices) {
    const api = context.apis[index];
    if (api === undefined) continue;
    const value = valueOf(api, index + 1);
    if (typeof value === 'object') return value.problem;
    values.push(value);
  }
  const first = values[0];
  if (scope !== 'all' || first === undefined || values.every((value) => value === first)) {
    return first === undefined ? [] : update(first, scope);
  }
  return values.map((value, position) => update(value, { api: indices[position] ?? 0 }));
}

const parseUsers: ClauseParser = (text, scoped, clause, context) => {
  if (!USERS_WORDS.test(text)) return undefined;
  const wrong = planOnly(scoped, 'Concurrent users', clause);
  if (wrong) return wrong;
  const rest = text.replace(USERS_WORDS, ' ');
  const relative = relativeOf(rest, context, clause);
  if (typeof relative === 'string') return relative;
  if (relative?.kind === 'factor') {
    const settled = settle(context.users, relative, 0);
    return typeof settled === 'string'
      ? settled
      : { field: 'concurrent_users', value: settled.value, scope: 'plan' };
  }
  const match = COUNT_VALUE.exec(rest);
  if (!match) return `Give the number of users, e.g. "set users to 50". ${context.users.range}`;
  const settled = settle(context.users, relative, Number(match[1]));
  return typeof settled === 'string'
    ? settled
    : { field: 'concurrent_users', value: settled.value, scope: 'plan' };
};

const ITERATION_WORDS = /(?<![a-z])(?:iterations?|loops?|repetitions?)(?![a-z])|반복(?:\s*횟수)?/iu;
const ITERATION_VALUE = new RegExp(String.raw`${START}${NUMBER}\s*(?:회|번|times)?${END}`, 'iu');

const parseIterations: ClauseParser = (text, scoped, clause, context) => {
  if (!ITERATION_WORDS.test(text)) return undefined;
  const wrong = planOnly(scoped, 'Iterations', clause);
  if (wrong) return wrong;
  const setting = context.iterations;
  if (!setting) return performanceHasNoIterations(clause);
  const rest = text.replace(ITERATION_WORDS, ' ');
  const relative = relativeOf(rest, context, clause);
  if (typeof relative === 'string') return relative;
  if (relative?.kind === 'factor') {
    const settled = settle(setting, relative, 0);
    return typeof settled === 'string'
      ? settled
      : { field: 'iterations', value: settled.value, scope: 'plan' };
  }
  const match = ITERATION_VALUE.exec(rest);
  if (!match) return `Give the number of iterations, e.g. "set iterations to 5". ${setting.range}`.trim();
  const settled = settle(setting, relative, Number(match[1]));
  return typeof settled === 'string' ? settled : { field: 'iterations', value: settled.value, scope: 'plan' };
};

const DURATION_WORDS =
  /(?<![a-z])(?:duration|run\s+(?:it\s+|the\s+test\s+)?for|test\s+for|for|length)(?![a-z])|실행\s*시간|테스트\s*시간|기간|지속\s*시간|동안/iu;
const DURATION_VALUE = new RegExp(
  String.raw`${START}${NUMBER}\s*(minutes?|mins?|m|hours?|hrs?|h|seconds?|secs?|s|분|시간|초)?${END}`,
  'iu',
);
const DURATION_UNIT_ONLY = new RegExp(
  String.raw`^(?:(?:set|change)\s+(?:it\s+)?(?:to\s+)?)?${NUMBER}\s*(minutes?|mins?|hours?|hrs?|분|시간)${END}\s*(?:동안\s*)?(?:실행(?:해\s*줘|해줘|해)?|run)?$`,
  'iu',
);

const parseDuration: ClauseParser = (text, scoped, clause, context) => {
  const named = DURATION_WORDS.test(text);
  const unitOnly = named ? null : DURATION_UNIT_ONLY.exec(text);
  if (!named && !unitOnly) return undefined;
  const rest = named ? text.replace(DURATION_WORDS, ' ') : text;
  // "5 minutes" alone goes on from a relative clause before it ("add 10 users and 5 minutes").
  const relative = relativeOf(rest, context, clause);
  if (typeof relative === 'string') return relative;
  if (relative?.kind === 'factor') {
    const wrong = planOnly(scoped, 'The duration', clause);
    if (wrong) return wrong;
    const settled = settle(context.duration, relative, 0);
    return typeof settled === 'string' ? settled : { field: 'duration', value: settled.value, scope: 'plan' };
  }
  const match = named ? DURATION_VALUE.exec(rest) : unitOnly;
  if (!match)
    return `Give the duration in minutes, e.g. "set duration to 10 minutes". ${context.duration.range}`;
  const wrong = planOnly(scoped, 'The duration', clause);
  if (wrong) return wrong;
  const amount = Number(match[1]);
  const unit = (match[2] ?? 'm').toLowerCase();
  const minutes =
    unit.startsWith('h') || unit === '시간'
      ? amount * 60
      : unit.startsWith('s') || unit === '초'
        ? amount / 60
        : amount;
  if (!Number.isInteger(minutes)) return context.duration.range;
  const settled = settle(context.duration, relative, minutes);
  return typeof settled === 'string' ? settled : { field: 'duration', value: settled.value, scope: 'plan' };
};

const TOOL_NAME = new RegExp(String.raw`(?<![a-z0-9])(${TOOLS.join('|')})(?![a-z0-9])`, 'iu');
const TOOL_CLAUSE =
  /^(?:please\s+)?(?:use|switch\s+(?:the\s+tool\s+)?to|change\s+(?:the\s+)?tool\s+to|set\s+(?:the\s+)?tool\s+to|tool(?:\s*[:=])?|run\s+(?:it\s+)?with|도구(?:를|는)?)?\s*(\S+?)(?:\s+(?:instead|tool))?\s*(?:으로|로)?\s*(?:바꿔(?:\s*줘)?|변경(?:해\s*줘|해줘|해)?|사용(?:해\s*줘|해줘|해)?|전환(?:해\s*줘|해줘|해)?|설정(?:해\s*줘|해줘|해)?)?$/iu;

const parseTool: ClauseParser = (text, scoped, clause) => {
  const match = TOOL_CLAUSE.exec(text);
  const tool = match ? TOOL_NAME.exec(match[1] ?? '') : null;
  if (!tool) {
    return /^(?:use|switch\s+to|change\s+(?:the\s+)?tool|set\s+(?:the\s+)?tool|tool)\b/iu.test(text)
      ? `The tool must be one of ${TOOLS.join(', ')}: "${clause}".`
      : undefined;
  }
  const wrong = planOnly(scoped, 'The tool', clause);
  if (wrong) return wrong;
  return { field: 'tool', value: (tool[1] ?? '').toLowerCase() as Tool, scope: 'plan' };
};

const METHOD_NAME = new RegExp(String.raw`(?<![a-z])(${HTTP_METHODS.join('|')})(?![a-z])`, 'iu');
const METHOD_CLAUSE =
  /^(?:(?:make|set|change|switch|use)\s+(?:(?:it|the\s+method|method)\s+)?(?:to\s+|into\s+)?(?:an?\s+)?|method\s*(?:to\s+|[:=]\s*)?|메서드(?:를|는)?\s*|메소드(?:를|는)?\s*)?(\S+?)(?:\s+(?:request|method))?\s*(?:으로|로)?\s*(?:바꿔(?:\s*줘)?|변경(?:해\s*줘|해줘|해)?|설정(?:해\s*줘|해줘|해)?)?$/iu;

const parseMethod: ClauseParser = (text, scoped, clause) => {
  const match = METHOD_CLAUSE.exec(text);
  const method = match ? METHOD_NAME.exec(match[1] ?? '') : null;
  if (!method || method[1]?.length !== match?.[1]?.replace(/(?:으로|로)$/u, '').length) return undefined;
  if (scoped.scope === undefined) {
    return `Say which API gets the method, e.g. "make API 2 a POST": "${clause}".`;
  }
  return { field: 'method', value: (method[1] ?? '').toUpperCase() as HttpMethod, scope: scoped.scope };
};

/**
 * Order matters: the words of one family can appear inside another ("time" in "think time" and
 * "timeout", "for" in "for all APIs"), so the more specific families are tried first.
 */
const CLAUSE_PARSERS: readonly ClauseParser[] = [
  parseRename,
  // Before users and duration: "ramp up over 2 minutes" and "a spike to 500 users" name their own.
  parseLoadProfile,
  parseHeader,
  parseBearer,
  parseRemoveApi,
  parseThinkTime,
  parseTimeout,
  parseTransactionRate,
  parseIterations,
  parseUsers,
  parseTool,
  parseMethod,
  parseDuration,
];

/*
 * The words and values that name each setting. A clause read as one setting that also names another
 * ("사용자 50명 기간 10분", "set users to 50 for 10 minutes") holds two changes with no word between them:
 * it is named back to the user, never read as its first change with the second dropped.
 */
const DURATION_NAMES =
  /(?<![a-z])(?:duration|length|run\s+(?:it\s+|the\s+test\s+)?for|test\s+for)(?![a-z])|실행\s*시간|테스트\s*시간|기간|지속\s*시간/iu;
const DURATION_AMOUNT = /(?:\d|\.\d)\s*(?:minutes?|mins?|hours?|hrs?|분|시간(?!\s*초))(?![a-z])/iu;
const USERS_AMOUNT = /\d\s*명/u;
const PERCENT_AMOUNT = /\d\s*(?:%|percent|퍼센트)/iu;

const SETTING_WORDS: readonly (readonly [ClauseUpdate['field'], RegExp])[] = [
  ['concurrent_users', USERS_WORDS],
  ['concurrent_users', USERS_AMOUNT],
  ['iterations', ITERATION_WORDS],
  ['duration', DURATION_NAMES],
  ['duration', DURATION_AMOUNT],
  ['thinkTime', THINK_TIME_WORDS],
  ['timeout', TIMEOUT_WORDS],
  ['transactionRate', RATE_WORDS],
  ['transactionRate', PERCENT_AMOUNT],
  ['tool', TOOL_NAME],
];

/** Fields whose clause is checked for a second setting; names, headers and tokens are taken as written. */
const CHECKED_FIELDS: ReadonlySet<ClauseUpdate['field']> = new Set([
  'concurrent_users',
  'iterations',
  'duration',
  'thinkTime',
  'timeout',
  'transactionRate',
  'tool',
]);

function namesAnotherSetting(field: ClauseUpdate['field'], text: string): boolean {
  if (!CHECKED_FIELDS.has(field)) return false;
  return SETTING_WORDS.some(([other, words]) => {
    if (other === field) return false;
    // A think time or a timeout may be given in minutes ("timeout 1 minute").
    if (words === DURATION_AMOUNT && (field === 'thinkTime' || field === 'timeout')) return false;
    return words.test(text);
  });
}

/** "ramp up over 2 minutes", "add a spike to 500 users" (text-command-profile.ts). */
function parseLoadProfile(
  text: string,
  scoped: Scoped,
  clause: string,
  context: ReadContext,
): ClauseUpdate | string | undefined {
  if (context.profile === undefined)
    return isProfileClause(text)
      ? `A functional plan has no load profile to change: "${clause}".`
      : undefined;
  const profile = parseProfileClause(text, context.profile, clause);
  if (profile === undefined) return undefined;
  if (typeof profile === 'string') return profile;
  return (
    planOnly(scoped, 'A load profile', clause) ?? { field: 'loadProfile', value: profile, scope: 'plan' }
  );
}

// ---- Functional plans ----

/**
 * One understood change to a functional plan, named by the functional model's fields
 * (docs/reference/02-running.md §3): users, iterations, test duration (minutes) and think time (whole
 * seconds, one for the whole plan) belong to the plan; timeout (seconds), method, headers and the bearer
 * token to one API or all.
 */
export type FunctionalUpdate =
  | { field: 'test_name'; value: string; scope: 'plan' }
  | {
      field: 'concurrent_users' | 'iterations' | 'test_duration' | 'think_time';
      value: number;
      scope: 'plan';
    }
  | { field: 'timeout'; value: number; scope: ApiScope }
  | { field: 'method'; value: HttpMethod; scope: ApiScope }
  | { field: 'addHeader'; value: HeaderValue; scope: ApiScope }
  | { field: 'removeHeader'; value: string; scope: ApiScope }
  | { field: 'bearerToken'; value: string; scope: ApiScope }
  | { field: 'removeApi'; value: true; scope: { api: number } };

export interface FunctionalTextCommandResult {
  updates: FunctionalUpdate[];
  /** One message per clause that was not understood, is out of bounds or has no place in a functional plan. */
  errors: string[];
}

/** A functional plan read the way a performance plan is: the same clauses, the functional model's bounds. */
export function parseFunctionalTextCommand(
  command: string,
  plan: FunctionalPlan,
): FunctionalTextCommandResult {
  const ui = runsInBrowser(plan);
  const bounds = (current: number, { min, max }: { min: number; max: number }, range: string): Setting => ({
    current,
    min,
    max,
    range,
  });
  const context: ReadContext = {
    ...NOTHING_READ,
    apiNames: plan.apis.map((api) => api.name),
    // The plan's one think time is every API's, so a relative change gives all of them one value.
    apis: plan.apis.map((api) => ({
      thinkTimeMs: plan.think_time * 1000,
      timeoutS: api.timeout,
      ratePercent: 100,
    })),
    timeout: bounds(0, FUNCTIONAL_BOUNDS.timeout, TIMEOUT_RANGE),
    users: bounds(
      plan.concurrent_users,
      FUNCTIONAL_BOUNDS.concurrent_users,
      FUNCTIONAL_PLAN_ERRORS.usersRange,
    ),
    duration: bounds(
      plan.test_duration,
      FUNCTIONAL_BOUNDS.test_duration,
      FUNCTIONAL_PLAN_ERRORS.durationRange,
    ),
    iterations: ui
      ? bounds(plan.iterations, FUNCTIONAL_BOUNDS.ui_iterations, FUNCTIONAL_PLAN_ERRORS.uiIterationsRange)
      : bounds(plan.iterations, FUNCTIONAL_BOUNDS.iterations, FUNCTIONAL_PLAN_ERRORS.iterationsRange),
    profile: undefined,
  };
  const read = readCommand(command, context);
  const updates: FunctionalUpdate[] = [];
  const errors = [...read.errors];
  for (const { update, clause } of read.clauses) {
    const mapped = functionalUpdateOf(update, clause);
    if (typeof mapped === 'string') errors.push(mapped);
    else updates.push(mapped);
  }
  const removalProblem = removesEveryApi(updates, plan.apis.length);
  if (!removalProblem) return { updates, errors };
  return { updates: updates.filter((u) => u.field !== 'removeApi'), errors: [...errors, removalProblem] };
}

function functionalUpdateOf(update: ClauseUpdate, clause: string): FunctionalUpdate | string {
  switch (update.field) {
    case 'name':
      return { field: 'test_name', value: update.value, scope: 'plan' };
    case 'concurrent_users':
    case 'iterations':
      return { field: update.field, value: update.value, scope: 'plan' };
    case 'duration':
      return { field: 'test_duration', value: update.value, scope: 'plan' };
    case 'thinkTime': {
      if (update.scope !== 'all') {
        return `A functional plan has one think time for all its APIs: "${clause}".`;
      }
      const seconds = parseThinkTimeMs(update.value) / 1000;
      const { min, max } = FUNCTIONAL_BOUNDS.think_time;
      if (!Number.isInteger(seconds) || seconds < min || seconds > max) {
        return FUNCTIONAL_PLAN_ERRORS.thinkTimeRange;
      }
      return { field: 'think_time', value: seconds, scope: 'plan' };
    }
    case 'tool':
      return `A functional plan has no load tool to change: "${clause}".`;
    case 'loadProfile':
      return `A functional plan has no load profile to change: "${clause}".`;
    case 'timeout':
    case 'transactionRate':
      return update.field === 'timeout'
        ? { field: 'timeout', value: update.value, scope: update.scope }
        : `A functional plan runs every API in turn and has no transaction rate: "${clause}".`;
    default:
      return update;
  }
}

/** The functional plan with the updates applied; the input is not changed (removals run last, as above). */
export function applyFunctionalTextCommand(
  plan: FunctionalPlan,
  updates: readonly FunctionalUpdate[],
): FunctionalPlan {
  const next = JSON.parse(JSON.stringify(plan)) as FunctionalPlan;
  const removals: number[] = [];
  for (const update of updates) {
    switch (update.field) {
      case 'test_name':
        next.test_name = update.value;
        break;
      case 'concurrent_users':
      case 'iterations':
      case 'test_duration':
      case 'think_time':
        next[update.field] = update.value;
        break;
      case 'removeApi':
        removals.push(update.scope.api);
        break;
      default: {
        const { scope } = update;
        const apis = scope === 'all' ? next.apis : next.apis.filter((_, index) => index === scope.api);
        for (const api of apis) applyToApi(api, update);
      }
    }
  }
  for (const index of [...new Set(removals)].sort((a, b) => b - a)) next.apis.splice(index, 1);
  return next;
}

function applyToApi(api: FunctionalPlan['apis'][number], update: FunctionalUpdate): void {
  switch (update.field) {
    case 'timeout':
      api.timeout = update.value;
      break;
    case 'method':
      api.method = update.value;
      break;
    case 'addHeader': {
      const name = update.value.name.toLowerCase();
      const kept = Object.entries(api.headers).filter(([key]) => key.toLowerCase() !== name);
      api.headers = Object.fromEntries([...kept, [update.value.name, update.value.value]]);
      break;
    }
    case 'removeHeader': {
      const name = update.value.toLowerCase();
      api.headers = Object.fromEntries(
        Object.entries(api.headers).filter(([key]) => key.toLowerCase() !== name),
      );
      break;
    }
    case 'bearerToken':
      api.authorization = { ...api.authorization, type: 'bearer', token: update.value };
      break;
    default:
      break;
  }
}
