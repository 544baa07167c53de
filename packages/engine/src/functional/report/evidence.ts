import { maskSecretHeaders, type FailureEvidence } from '@aqa/plan';

/*
 * A failed call's evidence as plain text (docs/design.md §9), for JUnit's system-out and the
 * terminal: the request and the response as sent and received, secret header values masked.
 */

function headerLines(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(maskSecretHeaders(headers)).map(([name, value]) => `${name}: ${value}`);
}

export function evidenceText(evidence: FailureEvidence): string {
  const { request, response } = evidence;
  const lines = [`> ${request.method} ${request.url}`, ...headerLines(request.headers).map((h) => `> ${h}`)];
  if (request.body !== '') lines.push('>', request.body);
  lines.push('');
  if (response === null) {
    lines.push('< (no response)');
  } else {
    lines.push(`< ${response.status}`, ...headerLines(response.headers).map((h) => `< ${h}`));
    if (response.body !== '') lines.push('<', response.body);
    if (response.truncated) lines.push('< (the body was longer; its first 64 KB are kept)');
  }
  return lines.join('\n');
}
