import type { Authorization } from '@aqa/plan';
import { asString, authorization, isRecord, noAuthorization } from './import-model';
import type { RefResolver } from './openapi-refs';
import type { QueryPair } from './url-tools';

/**
 * An operation's security requirement (its own, else the document's) as the step's authorization, for
 * both dialects: Swagger 2 keeps the schemes in securityDefinitions, OpenAPI 3 in
 * components.securitySchemes. What the plan cannot express is a warning, said once per scheme.
 */
export class SecurityMapper {
  constructor(
    private readonly resolver: RefResolver,
    /** The document's `security`. */
    private readonly documentSecurity: unknown,
    /** The map of schemes by name. */
    private readonly schemes: unknown,
    /** Where that map is, for messages: "securityDefinitions" or "components.securitySchemes". */
    private readonly prefix: string,
    private readonly warnOnce: (location: string, message: string) => void,
  ) {}

  /** The security requirement of the operation (or the document's) as the step's authorization. */
  map(
    operation: Record<string, unknown>,
    location: string,
  ): { authorization: Authorization; headers: { name: string; value: string }[]; query: QueryPair[] } {
    const out = {
      authorization: noAuthorization(),
      headers: [] as { name: string; value: string }[],
      query: [] as QueryPair[],
    };
    const requirements = Array.isArray(operation.security)
      ? operation.security
      : Array.isArray(this.documentSecurity)
        ? this.documentSecurity
        : [];
    const first: unknown = requirements[0];
    if (!isRecord(first)) return out;
    const { schemes, prefix } = this;
    let assigned = false;
    for (const [name, scopes] of Object.entries(first)) {
      const at = `${prefix}.${name}`;
      const resolved = isRecord(schemes)
        ? this.resolver.resolve(schemes[name], this.resolver.root, at)
        : undefined;
      if (resolved === undefined || !isRecord(resolved.value)) {
        this.warnOnce(
          at,
          `Security scheme ${name} is used by ${location} but not defined, so it is left out`,
        );
        continue;
      }
      const mapped = this.mapScheme(
        name,
        resolved.value,
        Array.isArray(scopes) ? scopes.map(String) : [],
        at,
      );
      if (mapped === undefined) continue;
      if (!assigned) {
        out.authorization = mapped;
        assigned = true;
      } else if (mapped.type === 'api_key') {
        // A second API key that the same requirement needs: sent as its own header or parameter.
        if (mapped.in === 'query') out.query.push({ key: mapped.keyName, value: '' });
        else out.headers.push({ name: mapped.keyName, value: '' });
      } else {
        this.warnOnce(
          `${at}:second`,
          `Security scheme ${name} is needed together with another one; only the first is applied`,
        );
      }
    }
    return out;
  }

  private mapScheme(
    name: string,
    scheme: Record<string, unknown>,
    scopes: string[],
    at: string,
  ): Authorization | undefined {
    const type = asString(scheme.type)?.toLowerCase();
    const unsupported = (what: string) => {
      this.warnOnce(
        at,
        `Security scheme ${name} (${what}) cannot be expressed in the plan, so it is left out`,
      );
      return undefined;
    };
    switch (type) {
      case 'basic':
        return authorization({ type: 'basic' });
      case 'http': {
        const httpScheme = asString(scheme.scheme)?.toLowerCase();
        if (httpScheme === 'bearer') {
          this.warnOnce(
            at,
            `Security scheme ${name} is bearer authentication: enter the token on the Authorization tab`,
          );
          return authorization({ type: 'bearer' });
        }
        if (httpScheme === 'basic') {
          this.warnOnce(
            at,
            `Security scheme ${name} is basic authentication: enter the user name and password on the Authorization tab`,
          );
          return authorization({ type: 'basic' });
        }
        return unsupported(`HTTP ${httpScheme ?? 'without a scheme'}`);
      }
      case 'apikey': {
        const where = asString(scheme.in);
        const keyName = asString(scheme.name);
        if (keyName === undefined || (where !== 'header' && where !== 'query')) {
          return unsupported(
            where === 'cookie'
              ? `an API key in cookie ${keyName ?? ''}`
              : 'an API key without a name or place',
          );
        }
        this.warnOnce(
          at,
          `Security scheme ${name} is an API key in ${where} ${keyName}: enter its value on the Authorization tab`,
        );
        return authorization({ type: 'api_key', keyName, in: where });
      }
      case 'oauth2': {
        const scope = scopes.join(' ');
        const flows = isRecord(scheme.flows) ? scheme.flows : undefined;
        const clientCredentials =
          flows && isRecord(flows.clientCredentials) ? flows.clientCredentials : undefined;
        const tokenUrl =
          asString(clientCredentials?.tokenUrl) ??
          (scheme.flow === 'application' ? asString(scheme.tokenUrl) : undefined);
        if (tokenUrl !== undefined) {
          this.warnOnce(
            at,
            `Security scheme ${name} is OAuth2 client credentials: enter the client id and secret on the Authorization tab`,
          );
          return authorization({ type: 'oauth2', tokenUrl, scope });
        }
        const flow = flows ? Object.keys(flows).join(', ') : (asString(scheme.flow) ?? 'unknown');
        this.warnOnce(
          at,
          `Security scheme ${name} is OAuth2 (${flow} flow), which needs a person to sign in: paste an access token as the bearer token`,
        );
        return authorization({ type: 'bearer' });
      }
      case 'openidconnect':
        this.warnOnce(
          at,
          `Security scheme ${name} is OpenID Connect: paste an access token as the bearer token`,
        );
        return authorization({ type: 'bearer' });
      case 'mutualtls':
        return unsupported('client certificates');
      default:
        return unsupported(type ?? 'no type');
    }
  }
}
