import { describe, expect, it } from 'vitest';
import { DYNAMIC_VARIABLE_NAMES, dynamicValue, isDynamicVariable } from './dynamic-variables';

describe('dynamic variables', () => {
  it('gives every listed name a value, and none to a name not listed', () => {
    for (const name of DYNAMIC_VARIABLE_NAMES) {
      expect(name).toMatch(/^\$[a-zA-Z0-9]+$/);
      expect(dynamicValue(name), name).not.toBe('');
    }
    expect(isDynamicVariable('$guid')).toBe(true);
    expect(isDynamicVariable('guid')).toBe(false);
    expect(dynamicValue('$toString')).toBeUndefined();
    expect(dynamicValue('$randomAvatarImage')).toBeUndefined();
  });

  it('writes values in the formats Postman documents', () => {
    const formats: Record<string, RegExp> = {
      $guid: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      $timestamp: /^\d{10}$/,
      $isoTimestamp: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
      $randomInt: /^(\d{1,3}|1000)$/,
      $randomAlphaNumeric: /^[a-z0-9]$/,
      $randomHexColor: /^#[0-9a-f]{6}$/,
      $randomIPV6: /^([0-9a-f]{4}:){7}[0-9a-f]{4}$/,
      $randomMACAddress: /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/,
      $randomPassword: /^[a-z0-9]{15}$/,
      $randomPhoneNumber: /^\d{3}-\d{3}-\d{4}$/,
      $randomUrl: /^https:\/\/[a-z]+\.(com|net|org)$/,
      $randomSemver: /^\d\.\d\.\d$/,
    };
    for (const [name, format] of Object.entries(formats)) {
      for (let i = 0; i < 20; i++) expect(dynamicValue(name), name).toMatch(format);
    }
    const past = Date.parse(dynamicValue('$randomDatePast')!);
    const future = Date.parse(dynamicValue('$randomDateFuture')!);
    expect(past).toBeLessThan(Date.now());
    expect(future).toBeGreaterThan(Date.now());
  });
});
