/**
 * A failed exchange described for a person: what happened and with which host, never a stack or a
 * bare error code. undici and node:net put the code on the error or somewhere down its cause chain
 * (and in AggregateError.errors when several addresses were tried), so the whole tree is searched.
 */

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_NONAME', 'EAI_NODATA', 'EAI_FAIL']);
const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_|HOSTNAME_MISMATCH$|EPROTO$)/;
const MAX_MESSAGE = 300;

interface CodedError {
  code: string;
  message: string;
}

export function describeNetworkError(error: unknown, target: URL): string {
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  const coded = findCodedErrors(error);
  const first = (test: (code: string) => boolean) => coded.find((e) => test(e.code));

  // The target guard's refusal already names the host and the setting (docs/adr/0015-target-guard.md).
  const refused = first((c) => c === 'AQA_TARGET_REFUSED');
  if (refused) return refused.message;

  if (first((c) => c === 'ECONNREFUSED')) return `Connection refused by ${host}:${port}`;
  if (first((c) => DNS_CODES.has(c))) return `Host not found: ${host}`;
  if (first((c) => c === 'EAI_AGAIN'))
    return `Host not found: ${host} (the DNS lookup failed; it may work later)`;
  const tls = first((c) => TLS_CODE.test(c));
  if (tls) return `TLS error: ${openSslReason(tls.message)}`;
  if (first((c) => c === 'ECONNRESET')) return `Connection reset by ${host}:${port}`;
  if (first((c) => c === 'EHOSTUNREACH' || c === 'ENETUNREACH' || c === 'EHOSTDOWN' || c === 'ENETDOWN')) {
    return `Host unreachable: ${host}`;
  }
  if (first((c) => c === 'UND_ERR_SOCKET' || c === 'UND_ERR_CLOSED' || c === 'EPIPE')) {
    return `The connection to ${host}:${port} closed before the answer was complete`;
  }
  if (first((c) => c === 'UND_ERR_HEADERS_OVERFLOW'))
    return `The answer from ${host}:${port} has too large headers`;
  if (first((c) => c === 'UND_ERR_INVALID_ARG')) {
    return clip(`The request could not be sent: ${messageOf(error)}`);
  }
  const message = messageOf(error);
  // Errors without a code (e.g. a certificate check that failed inside the TLS library) still say what they are.
  if (/certificate|ssl|tls/i.test(message)) return clip(`TLS error: ${openSslReason(message)}`);
  return clip(`Request to ${host}:${port} failed: ${message}`);
}

function findCodedErrors(error: unknown): CodedError[] {
  const found: CodedError[] = [];
  const seen = new Set<unknown>();
  const visit = (node: unknown, depth: number): void => {
    if (depth > 5 || node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const { code, message, cause, errors } = node as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string') found.push({ code, message: typeof message === 'string' ? message : '' });
    visit(cause, depth + 1);
    if (Array.isArray(errors)) for (const inner of errors) visit(inner, depth + 1);
  };
  visit(error, 0);
  return found;
}

/** OpenSSL messages read "…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:…"; keep the reason. */
function openSslReason(message: string): string {
  const reason = /:error:[0-9A-Fa-f]+:[^:]*:[^:]*:([^:\n]+)/.exec(message)?.[1];
  return clip((reason ?? message).trim());
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}
