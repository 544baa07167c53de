import type { Authorization, UrlEntry } from '@aqa/plan';
import {
  authorization,
  countMethods,
  ImportError,
  type ImportResult,
  type ImportWarning,
  isHttpMethod,
  makeStep,
  noAuthorization,
  type StepSource,
  neededValues,
} from './import-model';
import { type ImportSource, sourceName, sourceText } from './read-document';
import {
  type MultipartPart,
  multipartBody,
  multipartContentType,
  parseQueryString,
  type QueryPair,
  splitQuery,
  toPlanUrl,
  urlPath,
} from './url-tools';

/**
 * cURL commands (as pasted from a terminal or a browser's "Copy as cURL", bash or cmd quoting) → plan
 * steps, one per command (one per URL when a command names several). Commands are separated by new lines
 * (a line ending in a backslash continues), `;`, `&&` or `|`. The flags that shape a request are read: -X,
 * -H, -d / --data / --data-raw / --data-binary / --data-ascii / --data-urlencode, --json, -F / --form, -u,
 * --url, -G, -I, -A, -e, -b, -m, --oauth2-bearer; transport flags (--compressed, -k, -L, -s ...) have no
 * meaning in a plan and are passed over; anything else is a warning.
 */

const SHORT_WITH_VALUE = new Set('XHdubAeFomTxUEwCrKDcYyzPtQ'.split(''));
const LONG_WITH_VALUE = new Set([
  'request',
  'header',
  'data',
  'data-raw',
  'data-binary',
  'data-ascii',
  'data-urlencode',
  'json',
  'user',
  'url',
  'user-agent',
  'referer',
  'cookie',
  'cookie-jar',
  'form',
  'form-string',
  'output',
  'max-time',
  'connect-timeout',
  'upload-file',
  'proxy',
  'proxy-user',
  'cert',
  'cacert',
  'capath',
  'key',
  'key-type',
  'cert-type',
  'write-out',
  'continue-at',
  'range',
  'config',
  'dump-header',
  'retry',
  'retry-delay',
  'retry-max-time',
  'limit-rate',
  'max-redirs',
  'resolve',
  'connect-to',
  'interface',
  'oauth2-bearer',
  'aws-sigv4',
  'url-query',
  'variable',
  'max-filesize',
  'speed-limit',
  'speed-time',
  'expect100-timeout',
  'keepalive-time',
  'local-port',
  'noproxy',
  'pinnedpubkey',
  'preproxy',
  'proxy-header',
  'request-target',
  'stderr',
  'trace',
  'trace-ascii',
  'unix-socket',
  'abstract-unix-socket',
  'ciphers',
  'tls-max',
  'dns-servers',
  'happy-eyeballs-timeout-ms',
  'ftp-port',
  'quote',
  'mail-from',
  'mail-rcpt',
  'login-options',
  'sasl-authzid',
  'service-name',
  'socks5',
  'socks5-hostname',
  'socks4',
  'socks4a',
  'etag-save',
  'etag-compare',
  'time-cond',
  'parallel-max',
  'header-file',
]);
/** Flags that change only how curl talks or prints, never what the request is. */
const TRANSPORT_FLAGS = new Set([
  'compressed',
  'insecure',
  'location',
  'silent',
  'show-error',
  'verbose',
  'include',
  'fail',
  'fail-with-body',
  'globoff',
  'no-buffer',
  'http1.0',
  'http1.1',
  'http2',
  'http2-prior-knowledge',
  'http3',
  'tlsv1',
  'tlsv1.0',
  'tlsv1.1',
  'tlsv1.2',
  'tlsv1.3',
  'sslv2',
  'sslv3',
  'ipv4',
  'ipv6',
  'progress-bar',
  'no-progress-meter',
  'location-trusted',
  'path-as-is',
  'raw',
  'tr-encoding',
  'no-keepalive',
  'no-sessionid',
  'tcp-nodelay',
  'tcp-fastopen',
  'remote-name',
  'remote-name-all',
  'remote-header-name',
  'create-dirs',
  'digest',
  'basic',
  'anyauth',
  'ntlm',
  'negotiate',
  'junk-session-cookies',
  'styled-output',
  'no-styled-output',
  'disable',
  'retry-connrefused',
  'retry-all-errors',
  'parallel',
  'ssl-no-revoke',
  'ssl-reqd',
  'ssl',
  'false-start',
  'cert-status',
  'post301',
  'post302',
  'post303',
  'suppress-connect-headers',
  'proxytunnel',
]);
const SHORT_TRANSPORT = new Set('sSLkvifgNq0123468:#MOJRZnlBjp'.split(''));

interface Request {
  method: string | undefined;
  urls: string[];
  headers: { name: string; value: string }[];
  data: string[];
  json: string[];
  form: MultipartPart[];
  formFiles: string[];
  query: QueryPair[];
  get: boolean;
  head: boolean;
  user: string | undefined;
  bearer: string | undefined;
  timeoutS: number | undefined;
}

export function curlToPlan(source: ImportSource | string): ImportResult {
  const input: ImportSource = typeof source === 'string' ? { text: source } : source;
  const file = input.name?.trim() || 'the cURL command';
  const text = sourceText({ ...input, name: sourceName({ name: file }) });
  const warnings: ImportWarning[] = [];
  const commands = splitCommands(text);
  const steps: UrlEntry[] = [];
  const sources: StepSource[] = [];
  const methods: string[] = [];
  const origins = new Set<string>();
  let curlCommands = 0;

  commands.forEach(({ words, line }) => {
    const location = `line ${line}`;
    const [program, ...args] = words;
    if (program === undefined) return;
    if (!/(^|[\\/])curl(\.exe)?$/i.test(program)) {
      warnings.push({ location, message: `"${program}" is not a curl command, so this line is left out` });
      return;
    }
    curlCommands++;
    const request = parseArguments(args, location, warnings);
    if (request.urls.length === 0) {
      warnings.push({ location, message: 'The curl command has no URL, so it is left out' });
      return;
    }
    for (const rawUrl of request.urls) {
      const built = buildStep(request, rawUrl, location, warnings);
      methods.push(built.method);
      if (!isHttpMethod(built.method)) {
        warnings.push({
          location,
          message: `${built.method} is not a method the plan can send, so this request is left out`,
        });
        continue;
      }
      const step = makeStep({ ...built.draft, method: built.method }, location, warnings);
      if (step === null) continue;
      const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+/i.exec(step.url)?.[0];
      if (origin) origins.add(origin);
      steps.push(step);
      sources.push({
        location,
        path: urlPath(step.url),
        method: built.method,
        requestBody: built.contentType ? { contentType: built.contentType, required: true } : null,
      });
    }
  });

  if (curlCommands === 0) {
    throw new ImportError(file, 'no curl command was found: each command must start with curl');
  }
  return {
    steps,
    sources,
    warnings,
    info: {
      format: 'curl',
      kind: 'cURL',
      title: input.name?.trim() || `${curlCommands} cURL command${curlCommands === 1 ? '' : 's'}`,
      servers: [...origins],
      requests: methods.length,
      methods: countMethods(methods),
    },
    needsValue: neededValues(steps, sources),
  };
}

function parseArguments(args: string[], location: string, warnings: ImportWarning[]): Request {
  const request: Request = {
    method: undefined,
    urls: [],
    headers: [],
    data: [],
    json: [],
    form: [],
    formFiles: [],
    query: [],
    get: false,
    head: false,
    user: undefined,
    bearer: undefined,
    timeoutS: undefined,
  };
  const warn = (message: string) => warnings.push({ location, message });
  let i = 0;
  const next = (flag: string): string | undefined => {
    const value = args[++i];
    if (value === undefined) warn(`${flag} has no value, so it is left out`);
    return value;
  };
  for (; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      request.urls.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = (eq === -1 ? arg.slice(2) : arg.slice(2, eq)).toLowerCase();
      if (LONG_WITH_VALUE.has(name)) {
        const value = eq === -1 ? next(arg) : arg.slice(eq + 1);
        if (value !== undefined) applyOption(request, name, value, warn);
      } else if (name === 'get') request.get = true;
      else if (name === 'head') request.head = true;
      else if (!TRANSPORT_FLAGS.has(name) && !name.startsWith('no-')) {
        warn(`The curl option --${name} is not understood and is left out`);
      }
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let c = 1; c < arg.length; c++) {
        const flag = arg[c] ?? '';
        if (SHORT_WITH_VALUE.has(flag)) {
          const rest = arg.slice(c + 1);
          const value = rest !== '' ? rest : next(`-${flag}`);
          if (value !== undefined) applyOption(request, SHORT_NAMES[flag] ?? flag, value, warn);
          break;
        }
        if (flag === 'G') request.get = true;
        else if (flag === 'I') request.head = true;
        else if (!SHORT_TRANSPORT.has(flag))
          warn(`The curl option -${flag} is not understood and is left out`);
      }
      continue;
    }
    request.urls.push(arg);
  }
  return request;
}

const SHORT_NAMES: Record<string, string> = {
  X: 'request',
  H: 'header',
  d: 'data',
  u: 'user',
  A: 'user-agent',
  e: 'referer',
  b: 'cookie',
  F: 'form',
  m: 'max-time',
  T: 'upload-file',
};

function applyOption(request: Request, name: string, value: string, warn: (message: string) => void): void {
  switch (name) {
    case 'request':
      request.method = value.trim().toUpperCase();
      return;
    case 'url':
      request.urls.push(value);
      return;
    case 'header': {
      const colon = value.indexOf(':');
      if (colon === -1) {
        // "Name;" sends an empty header; anything else without a colon is not a header.
        if (value.trim().endsWith(';')) request.headers.push({ name: value.trim().slice(0, -1), value: '' });
        else if (!value.trim().startsWith('@'))
          warn(`-H "${value}" is not a header (Name: value), so it is left out`);
        else warn(`Headers read from the file ${value.slice(1)} are not available, so they are left out`);
        return;
      }
      const headerValue = value.slice(colon + 1).trim();
      // "Name:" with nothing after it removes a header curl would send; the plan has none to remove.
      if (headerValue !== '')
        request.headers.push({ name: value.slice(0, colon).trim(), value: headerValue });
      return;
    }
    case 'data':
    case 'data-ascii':
    case 'data-binary':
      if (value.startsWith('@')) {
        warn(
          `The body is read from the file ${value.slice(1)}, which is not available; add the body by hand`,
        );
        return;
      }
      request.data.push(name === 'data-binary' ? value : value.replace(/[\r\n]/g, ''));
      return;
    case 'data-raw':
      request.data.push(value);
      return;
    case 'data-urlencode': {
      const at = value.indexOf('@');
      const eq = value.indexOf('=');
      if (at !== -1 && (eq === -1 || at < eq)) {
        warn(
          `--data-urlencode reads the file ${value.slice(at + 1)}, which is not available, so it is left out`,
        );
        return;
      }
      if (eq === -1) request.data.push(encodeURIComponent(value));
      else if (eq === 0) request.data.push(encodeURIComponent(value.slice(1)));
      else request.data.push(`${value.slice(0, eq)}=${encodeURIComponent(value.slice(eq + 1))}`);
      return;
    }
    case 'json':
      if (value.startsWith('@'))
        warn(`The JSON body is read from the file ${value.slice(1)}, which is not available`);
      else request.json.push(value);
      return;
    case 'form':
    case 'form-string': {
      const eq = value.indexOf('=');
      if (eq === -1) {
        warn(`-F "${value}" is not name=value, so it is left out`);
        return;
      }
      const field = value.slice(0, eq);
      const content = value.slice(eq + 1);
      if (name === 'form' && (content.startsWith('@') || content.startsWith('<'))) {
        const path = content.slice(1).split(';')[0] ?? '';
        request.formFiles.push(field);
        request.form.push({
          name: field,
          value: '',
          fileName: content.startsWith('@') ? (path.split(/[\\/]/).pop() ?? path) : undefined,
          contentType:
            /;type=([^;]+)/.exec(content)?.[1] ??
            (content.startsWith('@') ? 'application/octet-stream' : undefined),
        });
      } else {
        request.form.push({
          name: field,
          value: name === 'form' ? (content.split(';type=')[0] ?? content) : content,
        });
      }
      return;
    }
    case 'user':
      request.user = value;
      return;
    case 'oauth2-bearer':
      request.bearer = value;
      return;
    case 'user-agent':
      request.headers.push({ name: 'User-Agent', value });
      return;
    case 'referer':
      request.headers.push({ name: 'Referer', value: value.replace(/;auto$/, '') });
      return;
    case 'cookie':
      if (value.includes('=')) request.headers.push({ name: 'Cookie', value });
      else warn(`Cookies are read from the file ${value}, which is not available, so they are left out`);
      return;
    case 'max-time': {
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds > 0)
        request.timeoutS = Math.min(300, Math.max(1, Math.ceil(seconds)));
      return;
    }
    case 'url-query':
      request.query.push(...parseQueryString(value.startsWith('+') ? value.slice(1) : value));
      return;
    case 'upload-file':
      warn(`The file ${value} to upload is not available; add the body by hand`);
      if (request.method === undefined) request.method = 'PUT';
      return;
    default:
      // Options with a value that do not shape the request (output files, proxies, certificates, ...).
      return;
  }
}

function buildStep(
  request: Request,
  rawUrl: string,
  location: string,
  warnings: ImportWarning[],
): {
  method: string;
  contentType: string | undefined;
  draft: {
    name: string;
    url: string;
    parameters: QueryPair[];
    headers: { name: string; value: string }[];
    authorization: Authorization;
    payload: string;
    timeout?: number;
  };
} {
  const headers = request.headers.map((h) => ({ ...h }));
  const headerIndex = (name: string) => headers.findIndex((h) => h.name.toLowerCase() === name);
  const split = splitQuery(rawUrl.trim());
  const parameters = [...split.query, ...request.query];
  let payload = '';
  let contentType: string | undefined;

  if (request.form.length > 0) {
    payload = multipartBody(request.form);
    contentType = multipartContentType();
    const at = headerIndex('content-type');
    if (at === -1) headers.push({ name: 'Content-Type', value: contentType });
    else if (headers[at]) headers[at].value = contentType;
    if (request.formFiles.length > 0) {
      warnings.push({
        location,
        message: `File field${request.formFiles.length > 1 ? 's' : ''} ${request.formFiles.join(', ')}: the file is not available, so an empty file part is sent until you replace it`,
      });
    }
  } else if (request.json.length > 0) {
    payload = request.json.join('');
    contentType = 'application/json';
    if (headerIndex('content-type') === -1) headers.push({ name: 'Content-Type', value: contentType });
    if (headerIndex('accept') === -1) headers.push({ name: 'Accept', value: 'application/json' });
  } else if (request.data.length > 0) {
    const data = request.data.join('&');
    if (request.get) {
      parameters.push(...parseQueryString(data));
    } else {
      payload = data;
      contentType = headers[headerIndex('content-type')]?.value ?? 'application/x-www-form-urlencoded';
      if (headerIndex('content-type') === -1) headers.push({ name: 'Content-Type', value: contentType });
    }
  }

  const hasBody = payload !== '';
  const method: string =
    request.method ?? (request.head ? 'HEAD' : request.get ? 'GET' : hasBody ? 'POST' : 'GET');

  let auth = noAuthorization();
  if (request.user !== undefined) {
    const colon = request.user.indexOf(':');
    if (colon === -1)
      warnings.push({
        location,
        message: '-u gives a user name without a password; enter the password on the Authorization tab',
      });
    auth = authorization({
      type: 'basic',
      username: colon === -1 ? request.user : request.user.slice(0, colon),
      password: colon === -1 ? '' : request.user.slice(colon + 1),
    });
  } else if (request.bearer !== undefined) {
    auth = authorization({ type: 'bearer', token: request.bearer });
  } else {
    const at = headerIndex('authorization');
    const fromHeader = at === -1 ? undefined : authorizationFromHeader(headers[at]?.value ?? '');
    if (fromHeader) {
      auth = fromHeader;
      headers.splice(at, 1);
    }
  }

  const url = toPlanUrl(split.base);
  return {
    method,
    contentType,
    draft: {
      name: `${method} ${urlPath(url)}`,
      url,
      parameters,
      headers,
      authorization: auth,
      payload,
      ...(request.timeoutS !== undefined ? { timeout: request.timeoutS } : {}),
    },
  };
}

/** "Bearer x" and "Basic base64(user:pass)" as the plan's authorization; other schemes stay headers. */
export function authorizationFromHeader(value: string): Authorization | undefined {
  const bearer = /^bearer\s+(.+)$/i.exec(value.trim());
  if (bearer?.[1]) return authorization({ type: 'bearer', token: bearer[1].trim() });
  const basic = /^basic\s+([A-Za-z0-9+/=]+)$/i.exec(value.trim());
  if (basic?.[1]) {
    const decoded = decodeBase64Utf8(basic[1]);
    const colon = decoded?.indexOf(':') ?? -1;
    if (decoded !== undefined && colon !== -1) {
      return authorization({
        type: 'basic',
        username: decoded.slice(0, colon),
        password: decoded.slice(colon + 1),
      });
    }
  }
  return undefined;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeBase64Utf8(text: string): string | undefined {
  const clean = text.replace(/=+$/, '');
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const index = BASE64.indexOf(char);
    if (index === -1) return undefined;
    buffer = (buffer << 6) | index;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  try {
    return decodeURIComponent(bytes.map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''));
  } catch {
    return undefined;
  }
}

interface Command {
  words: string[];
  /** The line the command starts on, 1-based. */
  line: number;
}

/**
 * Shell words of each command. Handles '...', "..." (with \" \\ \$ \`), $'...' (ANSI-C escapes),
 * backslash escapes and line continuations (\ at the end of a line, and cmd's ^ and PowerShell's `).
 * Windows cmd's ^-escaping ("Copy as cURL (cmd)") is undone first.
 */
export function splitCommands(text: string): Command[] {
  let source = text.replace(/\r\n?/g, '\n');
  if (/^\s*curl(\.exe)?\s+\^"/im.test(source)) {
    source = source.replace(/\^\n/g, ' ').replace(/\^(.)/g, '$1');
  }
  source = source.replace(/`\n/g, ' ');
  const commands: Command[] = [];
  let words: string[] = [];
  let word: string | undefined;
  let line = 1;
  let start = 1;
  const endWord = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push({ words, line: start });
    words = [];
  };
  for (let i = 0; i < source.length; i++) {
    const ch = source[i] ?? '';
    if (words.length === 0 && word === undefined) start = line;
    if (ch === '\\') {
      const following = source[i + 1];
      if (following === '\n') {
        line++;
        i++;
        endWord();
        continue;
      }
      if (following !== undefined) {
        word = (word ?? '') + following;
        i++;
      }
      continue;
    }
    if (ch === "'") {
      const close = source.indexOf("'", i + 1);
      const end = close === -1 ? source.length : close;
      const quoted = source.slice(i + 1, end);
      line += countLines(quoted);
      word = (word ?? '') + quoted;
      i = end;
      continue;
    }
    if (ch === '$' && source[i + 1] === "'") {
      const { value, end } = ansiC(source, i + 2);
      word = (word ?? '') + value;
      i = end;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      let quoted = '';
      while (j < source.length && source[j] !== '"') {
        const c = source[j] ?? '';
        if (c === '\\' && j + 1 < source.length && '"\\$`\n'.includes(source[j + 1] ?? '')) {
          if (source[j + 1] !== '\n') quoted += source[j + 1];
          j += 2;
          continue;
        }
        quoted += c;
        j++;
      }
      line += countLines(quoted);
      word = (word ?? '') + quoted;
      i = j;
      continue;
    }
    if (ch === '\n') {
      endCommand();
      line++;
      continue;
    }
    if (ch === '#' && word === undefined) {
      const eol = source.indexOf('\n', i);
      i = (eol === -1 ? source.length : eol) - 1;
      continue;
    }
    if (ch === ';' || ch === '|' || (ch === '&' && source[i + 1] === '&')) {
      endCommand();
      if (source[i + 1] === ch) i++;
      continue;
    }
    if (/\s/.test(ch)) {
      endWord();
      continue;
    }
    word = (word ?? '') + ch;
  }
  endCommand();
  return commands;
}

function countLines(text: string): number {
  let n = 0;
  for (const c of text) if (c === '\n') n++;
  return n;
}

const ANSI_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  "'": "'",
  '"': '"',
  '\\': '\\',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  v: '\v',
};

function ansiC(source: string, from: number): { value: string; end: number } {
  let value = '';
  let i = from;
  while (i < source.length && source[i] !== "'") {
    const c = source[i] ?? '';
    if (c === '\\' && i + 1 < source.length) {
      const next = source[i + 1] ?? '';
      const hex = next === 'x' ? /^[0-9a-fA-F]{1,2}/.exec(source.slice(i + 2)) : null;
      const unicode = next === 'u' ? /^[0-9a-fA-F]{1,4}/.exec(source.slice(i + 2)) : null;
      if (hex) {
        value += String.fromCharCode(parseInt(hex[0], 16));
        i += 2 + hex[0].length;
      } else if (unicode) {
        value += String.fromCharCode(parseInt(unicode[0], 16));
        i += 2 + unicode[0].length;
      } else {
        value += ANSI_ESCAPES[next] ?? `\\${next}`;
        i += 2;
      }
      continue;
    }
    value += c;
    i++;
  }
  return { value, end: i };
}
