import { AuthorizationSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { authSummary, maskSecretsInScript, maskToken } from './auth-display';

const auth = (input: Record<string, string>) => AuthorizationSchema.parse(input);

describe('token masking in the plan details', () => {
  it('shows the first 20 characters of a longer token', () => {
    expect(maskToken('abcdefghijklmnopqrstuvwxyz')).toBe('abcdefghijklmnopqrst…');
    expect(maskToken('short-token')).toBe('short-token');
    expect(maskToken('12345678901234567890')).toBe('12345678901234567890');
  });

  it('cuts bearer and OAuth2 tokens and never shows passwords or key values', () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.payload.signature';
    expect(authSummary(auth({ type: 'bearer', token }))).toEqual({
      type: 'bearer',
      detail: 'eyJhbGciOiJIUzI1NiJ9…',
    });
    expect(authSummary(auth({ type: 'oauth2', token: 'my-client-id:very-secret-value' })).detail).toBe(
      'my-client-id:very-se…',
    );
    expect(authSummary(auth({ type: 'basic', username: 'ada', password: 'pw' }))).toEqual({
      type: 'basic',
      detail: 'ada',
    });
    expect(authSummary(auth({ type: 'api_key', keyName: 'X-Key', keyValue: 'v' })).detail).toBe('X-Key');
    expect(authSummary(auth({ type: 'none' })).detail).toBe('');
  });

  it('cuts the tokens a generated script embeds', () => {
    const token = 'tok_0123456789abcdefghijklmnop';
    const script = `headers = {"Authorization": "Bearer ${token}"}\nclient = ("app", "top-secret")`;
    const masked = maskSecretsInScript(script, [
      auth({ type: 'bearer', token }),
      auth({ type: 'oauth2', token: 'app:top-secret' }),
    ]);
    expect(masked).not.toContain(token);
    expect(masked).toContain('Bearer tok_0123456789abcdef…');
    expect(masked).not.toContain('top-secret');
  });
});
