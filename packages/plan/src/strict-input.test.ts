import { describe, expect, it } from 'vitest';
import {
  hasInvisibleCharacter,
  LoginRequestSchema,
  normalizeEmail,
  ProfileUpdateSchema,
  RegistrationSchema,
  validateRegistration,
} from './account';
import { describeIssues } from './migrate-plan';
import { migratePlan, safeMigratePlan } from './migrate-plan';
import { PLAN_ERRORS, PerfPlanSchema, ScriptRequestSchema } from './perf-plan';
import { ApiTokenCreateSchema } from './tokens';
import { isWellFormedText, multiLine, noNul, oneLine, wholeNumber } from './strict-input';

const minimal = { name: 'Checkout', urls: [{ url: 'https://shop.test/api' }] };

function refusal(input: unknown) {
  const result = PerfPlanSchema.safeParse(input);
  if (result.success) throw new Error(`expected the plan to be refused: ${JSON.stringify(input)}`);
  return describeIssues(result.error);
}

/** Everything docs/design.md §11 calls a bad number, as JSON can carry it. */
const BAD_NUMBERS: unknown[] = [
  0,
  -1,
  -0.5,
  1.5,
  'abc',
  '',
  null,
  '1e3',
  '0x10',
  ' 10 ',
  '10 ',
  '+10',
  '-1',
  '1.0',
  '1_000',
  'Infinity',
  Number.MAX_SAFE_INTEGER + 2,
  1e21,
  '99999999999999999999',
  true,
  [5],
  { n: 5 },
];

describe('wholeNumber (docs/design.md §11: numbers are strict)', () => {
  const field = wholeNumber('n must be a whole number from 1 to 100', 1, 100);

  it.each(BAD_NUMBERS.map((value) => [JSON.stringify(value) ?? String(value), value]))(
    'refuses %s with the message that names the field',
    (_label, value) => {
      const result = field.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        'n must be a whole number from 1 to 100',
      ]);
    },
  );

  it('takes numbers and plain decimal digits', () => {
    expect(field.parse(30)).toBe(30);
    expect(field.parse('30')).toBe(30);
    expect(field.parse('007')).toBe(7);
    expect(field.parse(100)).toBe(100);
    expect(field.safeParse(101).success).toBe(false);
  });
});

describe('the plan refuses bad numbers by field', () => {
  it.each([
    ['concurrent_users', PLAN_ERRORS.usersRange],
    ['duration', PLAN_ERRORS.durationRange],
  ])('%s', (key, message) => {
    for (const value of BAD_NUMBERS) {
      expect(refusal({ ...minimal, [key]: value }), JSON.stringify(value)).toEqual([{ field: key, message }]);
      // The migration of older plans reads numbers no more loosely than the schema.
      expect(safeMigratePlan({ ...minimal, [key]: value }).success, JSON.stringify(value)).toBe(false);
    }
    expect(PerfPlanSchema.parse({ ...minimal, [key]: '5' })[key as 'duration']).toBe(5);
    expect(migratePlan({ ...minimal, [key]: '5' })[key as 'duration']).toBe(5);
  });
});

describe('control characters (docs/design.md §11)', () => {
  it('refuses a NUL in a plan name instead of cutting the name at it', () => {
    expect(refusal({ ...minimal, name: 'Check\u0000out' })).toEqual([
      { field: 'name', message: 'Plan name cannot contain control characters or line breaks' },
    ]);
  });

  it.each(['\u0000', '\u0001', '\n', '\r', '\t', '\u001b', '\u007f', '\u2028', '\u2029'])(
    'refuses %j in one-line fields: plan names, URLs, the script request name',
    (char) => {
      expect(refusal({ ...minimal, name: `A${char}B` }).map((i) => i.field)).toEqual(['name']);
      expect(refusal({ ...minimal, name: `AB${char}` }).map((i) => i.field)).toEqual(['name']);
      // A white-space control also fails the URL's shape: one field, maybe two sentences.
      const urlIssues = refusal({ ...minimal, urls: [{ url: `https://shop.test/a${char}b`, name: 'x' }] });
      expect(new Set(urlIssues.map((i) => i.field))).toEqual(new Set(['urls[0].url']));
      expect(urlIssues.map((i) => i.message)).toContain(
        'URL cannot contain control characters or line breaks',
      );
      expect(ScriptRequestSchema.safeParse({ ...minimal, name: `A${char}` }).success).toBe(false);
    },
  );

  it('keeps tabs and line breaks in text of several lines, and refuses other controls there', () => {
    const text = 'line one\n\tline two\r\n';
    const plan = PerfPlanSchema.parse({
      ...minimal,
      description: text,
      script: text,
      urls: [{ url: 'https://shop.test/', payload: `{"a":\n\t1}` }],
    });
    expect(plan.description).toBe(text);
    expect(plan.script).toBe(text);
    expect(refusal({ ...minimal, description: 'a\u0000b' })[0]?.field).toBe('description');
    // An API name is such a label: importers fold its white space, generators escape it.
    expect(
      PerfPlanSchema.parse({ ...minimal, urls: [{ url: 'https://shop.test/', name: 'a\nb' }] }).urls[0]?.name,
    ).toBe('a\nb');
    expect(refusal({ ...minimal, urls: [{ url: 'https://shop.test/', name: 'a\u0000b' }] })[0]).toEqual({
      field: 'urls[0].name',
      message: 'API name cannot contain control characters other than tabs and line breaks',
    });
    expect(refusal({ ...minimal, description: 'a\u001bb' })[0]?.field).toBe('description');
    expect(refusal({ ...minimal, script: 'a\u0000b' })[0]?.field).toBe('script');
    expect(refusal({ ...minimal, urls: [{ url: 'https://shop.test/', payload: 'a\u0000' }] })[0]).toEqual({
      field: 'urls[0].payload',
      message: 'Body cannot contain a NUL character',
    });
  });

  it('refuses controls in header values, but not a tab', () => {
    const withHeader = (value: string) => ({
      ...minimal,
      urls: [{ url: 'https://shop.test/', headers: [{ name: 'X-A', value }] }],
    });
    expect(PerfPlanSchema.safeParse(withHeader('a\tb')).success).toBe(true);
    expect(refusal(withHeader('a\u0000b'))[0]?.field).toBe('urls[0].headers[0].value');
  });

  it('refuses them in account names and emails, on the same rule as the registration form', () => {
    const registration = {
      email: 'ada@example.com',
      password: 'secret-1',
      confirmPassword: 'secret-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
    };
    for (const field of ['email', 'firstName', 'lastName'] as const) {
      const input = { ...registration, [field]: `${registration[field]}\u0000x` };
      expect(validateRegistration(input)).toEqual({ [field]: 'controlCharacters' });
      const result = RegistrationSchema.safeParse(input);
      expect(result.success && 'accepted').toBe(false);
      expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual([field]);
    }
    expect(RegistrationSchema.safeParse({ ...registration, company: 'A\u2028B' }).success).toBe(false);
    expect(RegistrationSchema.safeParse({ ...registration, role: 'QA\n' }).success).toBe(false);
    expect(ProfileUpdateSchema.safeParse({ firstName: 'A\u0000', lastName: 'B' }).success).toBe(false);
    expect(LoginRequestSchema.safeParse({ username: 'a@b.c\u0000', password: 'x' }).success).toBe(false);
    expect(RegistrationSchema.safeParse(registration).success).toBe(true);
  });
});

describe('well-formed text (issue 23; docs/design.md §11)', () => {
  it('tells half a character from a whole one, as String.prototype.isWellFormed does', () => {
    for (const text of ['', 'plain', 'CI 🚀', '한국어', '\ud83d\ude80'])
      expect(isWellFormedText(text), text).toBe(true);
    for (const text of ['\ud83d', 'a\ude80', 'x\ud83d y', '\ude80\ud83d']) {
      expect(isWellFormedText(text), JSON.stringify(text)).toBe(false);
      expect((text as unknown as { isWellFormed(): boolean }).isWellFormed()).toBe(false);
    }
  });

  it('is refused by every text rule, naming the field, and by the registration rules', () => {
    for (const schema of [oneLine('Plan name'), multiLine('Plan name'), noNul('Plan name')]) {
      const result = schema.safeParse('Half \ud83d');
      expect(result.error?.issues.map((i) => i.message)).toEqual([
        'Plan name is not well-formed text: it holds half of a character (a lone UTF-16 surrogate). Type or paste it again.',
      ]);
    }
    expect(ApiTokenCreateSchema.safeParse({ name: 'ci \udc00' }).success).toBe(false);
    expect(ApiTokenCreateSchema.safeParse({ name: 'ci 🚀' }).success).toBe(true);
    const registration = {
      email: 'ada@example.com',
      password: 'secret-1',
      confirmPassword: 'secret-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
    };
    for (const field of ['email', 'firstName', 'lastName'] as const) {
      expect(validateRegistration({ ...registration, [field]: `${registration[field]}\ud800` })).toEqual({
        [field]: 'illFormedText',
      });
    }
  });
});

describe('emails (docs/adr/0018-safe-defaults-and-lockout.md)', () => {
  it('are keyed by NFKC and lower case, so what looks alike is one key', () => {
    expect(normalizeEmail(' Ada@Example.COM ')).toBe('ada@example.com');
    expect(normalizeEmail('\uff21\uff24\uff21\uff20example.com')).toBe('ada@example.com');
    expect(normalizeEmail('\ufb01nance@example.com')).toBe('finance@example.com');
    expect(normalizeEmail('ｅ\u0301@example.com')).toBe(normalizeEmail('\u00e9@example.com'));
  });

  it('refuse invisible characters and controls, and keep letters of every script', () => {
    for (const char of [
      '\u200b',
      '\u200c',
      '\u200d',
      '\u2060',
      '\ufeff',
      '\u200e',
      '\u202e',
      '\u2066',
      '\u00ad',
      '\u3164',
      '\u0085',
      '\ufe0f',
    ]) {
      expect(hasInvisibleCharacter(`ada${char}@example.com`), char.codePointAt(0)!.toString(16)).toBe(true);
      expect(validateRegistration({ email: `ada${char}@example.com` }).email).toBe(
        'emailInvisibleCharacters',
      );
    }
    expect(LoginRequestSchema.safeParse({ username: 'ada\u200b@example.com', password: 'x' }).success).toBe(
      false,
    );
    for (const email of ['ada@example.com', '김@example.kr', 'ñandú@example.es', 'δοκιμή@example.gr']) {
      expect(hasInvisibleCharacter(email), email).toBe(false);
      expect(validateRegistration({ email }).email, email).toBeUndefined();
    }
  });
});
