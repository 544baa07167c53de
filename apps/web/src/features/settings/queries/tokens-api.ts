import { contract } from '@aqa/contract';
import type { ApiToken, ApiTokenCreate, ApiTokenCreated } from '@aqa/plan';
import { call } from '@/lib/api';

/** POST /api/tokens: the answer carries the token, this once. */
export function createApiToken(request: ApiTokenCreate): Promise<ApiTokenCreated> {
  return call(contract.tokens.create, { body: request });
}

export function revokeApiToken(token: Pick<ApiToken, 'id'>): Promise<void> {
  return call(contract.tokens.revoke, { params: { id: token.id } });
}
