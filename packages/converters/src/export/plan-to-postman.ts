import {
  BODY_METHODS,
  DEFAULT_TIMEOUT_S,
  type PerfPlan,
  type UrlEntry,
  hasAssertion,
  hasExtraction,
  inferContentType,
  parseThinkTimeMs,
} from '@aqa/plan';
import type { ScriptWarning } from './script-model';

/**
 * A plan as a Postman collection (v2.1.0): one request per step, in order, with its method, URL, query
 * parameters, headers, body and authorization. What a collection cannot hold without scripts — think time,
 * transaction rate, extraction, assertions, a time-out other than the default — is named in `warnings`,
 * never dropped silently. A body's content type, which the plan infers from the body when no header sets
 * it (docs/design.md §4), is written as the raw body's language so Postman sends the same Content-Type.
 */

export const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

export interface PostmanExport {
  collection: Record<string, unknown>;
  warnings: ScriptWarning[];
}

const LANGUAGE_BY_TYPE: Record<string, string> = {
  'application/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'text/html': 'html',
  'text/plain': 'text',
  'application/javascript': 'javascript',
};

type KeyValue = { key: string; value: string; type: 'string' };
const kv = (key: string, value: string): KeyValue => ({ key, value, type: 'string' });

function postmanAuth(step: UrlEntry): Record<string, unknown> {
  const auth = step.authorization;
  switch (auth.type) {
    case 'bearer':
      return { type: 'bearer', bearer: [kv('token', auth.token)] };
    case 'basic':
      return { type: 'basic', basic: [kv('username', auth.username), kv('password', auth.password)] };
    case 'api_key':
      return {
        type: 'apikey',
        apikey: [kv('key', auth.keyName), kv('value', auth.keyValue), kv('in', auth.in)],
      };
    case 'oauth2': {
      // The plan keeps client credentials as "clientId:clientSecret".
      const colon = auth.token.indexOf(':');
      const clientId = colon === -1 ? auth.token : auth.token.slice(0, colon);
      const clientSecret = colon === -1 ? '' : auth.token.slice(colon + 1);
      return {
        type: 'oauth2',
        oauth2: [
          kv('grant_type', 'client_credentials'),
          kv('accessTokenUrl', auth.tokenUrl),
          kv('clientId', clientId),
          kv('clientSecret', clientSecret),
          kv('scope', auth.scope),
          kv('client_authentication', 'body'),
        ],
      };
    }
    default:
      // Explicit, so the request does not inherit an authorization Postman users add to the collection.
      return { type: 'noauth' };
  }
}

/** Postman's structured URL for a plan URL: raw text (with the query) plus the query as pairs. */
function postmanUrl(step: UrlEntry): Record<string, unknown> {
  const query = step.parameters.filter((p) => p.key.trim() !== '');
  const queryText = query.map((p) => `${encodeURIComponent(p.key)}=${encodeURIComponent(p.value)}`).join('&');
  const separator = step.url.includes('?') ? '&' : '?';
  const raw = queryText === '' ? step.url : `${step.url}${separator}${queryText}`;
  const url: Record<string, unknown> = { raw };
  const parts = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)/i.exec(step.url);
  if (parts) {
    url.protocol = parts[1];
    const hostPort = parts[2] ?? '';
    const portMatch = /:(\d+)$/.exec(hostPort);
    url.host = (portMatch ? hostPort.slice(0, -portMatch[0].length) : hostPort).split('.');
    if (portMatch) url.port = portMatch[1];
    url.path = (parts[3] ?? '').split('/').slice(1);
  }
  if (query.length > 0) url.query = query.map((p) => ({ key: p.key, value: p.value }));
  return url;
}

function unsupported(step: UrlEntry, index: number): ScriptWarning[] {
  const field = (name: string) => `urls[${index}].${name}`;
  const label = step.name?.trim() || `${step.method} ${step.url}`;
  const warnings: ScriptWarning[] = [];
  const thinkMs = parseThinkTimeMs(step.thinkTime);
  if (thinkMs > 0) {
    warnings.push({
      field: field('thinkTime'),
      message: `${label}: think time ${step.thinkTime} is not part of a Postman collection (set a delay in the Collection Runner)`,
    });
  }
  if (step.transactionRate !== '' && step.transactionRate < 100) {
    warnings.push({
      field: field('transactionRate'),
      message: `${label}: a transaction rate of ${step.transactionRate}% is not part of a Postman collection; the request is always sent`,
    });
  }
  if (hasExtraction(step)) {
    warnings.push({
      field: field('extractName'),
      message: `${label}: the extraction into {{${step.extractName}}} is not exported; add a test script that sets the variable`,
    });
  }
  if (hasAssertion(step)) {
    warnings.push({
      field: field('assertionType'),
      message: `${label}: the ${step.assertionType} assertion is not exported; add a test script that checks it`,
    });
  }
  if (step.timeout !== DEFAULT_TIMEOUT_S) {
    warnings.push({
      field: field('timeout'),
      message: `${label}: the ${step.timeout} s time-out is a Postman setting, not part of the collection`,
    });
  }
  return warnings;
}

export function planToPostman(plan: Pick<PerfPlan, 'name' | 'description' | 'urls'>): PostmanExport {
  const warnings: ScriptWarning[] = [];
  const item = plan.urls.map((step, index) => {
    warnings.push(...unsupported(step, index));
    const headers = step.headers.filter((h) => h.name.trim() !== '');
    const request: Record<string, unknown> = {
      method: step.method,
      header: headers.map((h) => ({ key: h.name, value: h.value })),
      url: postmanUrl(step),
      auth: postmanAuth(step),
    };
    if (step.payload !== '' && (BODY_METHODS as readonly string[]).includes(step.method)) {
      const declared = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value;
      const type = (declared ?? inferContentType(step.payload) ?? '').split(';')[0]?.trim().toLowerCase();
      const language = type ? LANGUAGE_BY_TYPE[type] : undefined;
      request.body = {
        mode: 'raw',
        raw: step.payload,
        ...(language ? { options: { raw: { language } } } : {}),
      };
    }
    return { name: step.name?.trim() || `${step.method} ${step.url}`, request };
  });
  return {
    collection: {
      info: {
        name: plan.name,
        ...(plan.description ? { description: plan.description } : {}),
        schema: POSTMAN_SCHEMA,
      },
      item,
    },
    warnings,
  };
}
