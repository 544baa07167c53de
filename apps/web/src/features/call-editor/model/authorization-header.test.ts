import { describe, expect, it } from 'vitest';
import {
  authorizationFromHeaderValue,
  authorizationMove,
  decodeBasicCredentials,
} from './authorization-header';
import { createEntry } from './entry-form';

const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

describe('authorizationFromHeaderValue', () => {
  it('reads a Bearer token, whatever the case of the scheme', () => {
    expect(authorizationFromHeaderValue('Bearer abc.def.ghi')).toEqual({
      type: 'bearer',
      token: 'abc.def.ghi',
    });
    expect(authorizationFromHeaderValue('  bearer   {{token}} ')).toEqual({
      type: 'bearer',
      token: '{{token}}',
    });
  });

  it('decodes Basic credentials into user and password (UTF-8, colons kept in the password)', () => {
    expect(authorizationFromHeaderValue(`Basic ${b64('ada:s3:cr3t')}`)).toEqual({
      type: 'basic',
      username: 'ada',
      password: 's3:cr3t',
    });
    expect(decodeBasicCredentials(b64('지수:비밀'))).toEqual({ username: '지수', password: '비밀' });
  });

  it('leaves what it cannot read: other schemes, undecodable or colon-less Basic, a scheme alone', () => {
    expect(authorizationFromHeaderValue('Digest username="ada"')).toBeNull();
    expect(authorizationFromHeaderValue('Basic not*base64')).toBeNull();
    expect(authorizationFromHeaderValue(`Basic ${b64('no-colon')}`)).toBeNull();
    expect(authorizationFromHeaderValue(`Basic ${btoa('\xff\xfe:x')}`)).toBeNull();
    expect(authorizationFromHeaderValue('Bearer')).toBeNull();
    expect(authorizationFromHeaderValue('')).toBeNull();
  });
});

describe('authorizationMove', () => {
  const row = (name: string, value: string) => ({ id: 'r1', name, value });

  it('moves an Authorization row (any case) while the Authorization tab is empty', () => {
    const entry = createEntry();
    expect(authorizationMove(row('AUTHORIZATION', 'Bearer t0k'), entry.authorization)).toEqual({
      patch: { type: 'bearer', token: 't0k' },
      moved: { type: 'bearer', token: 't0k' },
    });
  });

  it('keeps the row when the tab already sets authorization, or the name is another header', () => {
    const entry = createEntry();
    const set = { ...entry.authorization, type: 'api_key' as const };
    expect(authorizationMove(row('Authorization', 'Bearer t0k'), set)).toBeNull();
    expect(authorizationMove(row('X-Authorization', 'Bearer t0k'), entry.authorization)).toBeNull();
  });
});
