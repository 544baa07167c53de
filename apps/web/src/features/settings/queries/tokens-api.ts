import type { ApiToken, ApiTokenCreate, ApiTokenCreated, ApiTokenList } from '@aqa/plan';
import { api } from '@/lib/api';

/** GET /api/tokens: the signed-in user's API tokens, newest first (never the tokens themselves). */
export function fetchApiTokens(signal: AbortSignal): Promise<ApiTokenList> {
  return api.get<ApiTokenList>('/tokens', { signal });
}

/** POST /api/tokens: the answer carries the token, this once. */
export function createApiToken(request: ApiTokenCreate): Promise<ApiTokenCreated> {
  return api.post<ApiTokenCreated>('/tokens', request);
}

export function revokeApiToken(token: Pick<ApiToken, 'id'>): Promise<void> {
  return api.delete<void>(`/tokens/${encodeURIComponent(token.id)}`);
}
