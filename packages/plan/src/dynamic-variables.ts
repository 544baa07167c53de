/*
 * Postman's dynamic variables (`{{$guid}}`, `{{$randomInt}}`, …): a fresh value at each use, as
 * Postman and Newman give them (docs/adr/0029-postman-collections.md). Postman draws them from
 * faker; these are drawn from small word lists of our own, in the same formats. Pure and browser-safe
 * (globalThis.crypto), so the load engine can use them too. The supported names are listed in
 * docs/adr/0029-postman-collections.md.
 */

const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Grace',
  'Linus',
  'Margaret',
  'Dennis',
  'Barbara',
  'Ken',
  'Frances',
  'Tim',
];
const LAST_NAMES = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson'];
const CITIES = ['Lisbon', 'Oslo', 'Nairobi', 'Osaka', 'Lima', 'Toronto', 'Dublin', 'Adelaide', 'Tunis'];
const COUNTRIES = ['Portugal', 'Norway', 'Kenya', 'Japan', 'Peru', 'Canada', 'Ireland', 'Australia'];
const COUNTRY_CODES = ['PT', 'NO', 'KE', 'JP', 'PE', 'CA', 'IE', 'AU'];
const STREETS = ['Maple Street', 'Harbour Road', 'Mill Lane', 'Station Avenue', 'Church Way'];
const COLORS = ['red', 'green', 'blue', 'orange', 'purple', 'teal', 'black', 'white', 'yellow'];
const WORDS = [
  'alpha',
  'bridge',
  'copper',
  'delta',
  'ember',
  'forest',
  'garden',
  'harbor',
  'island',
  'jungle',
];
const COMPANY_SUFFIXES = ['Inc', 'LLC', 'Group', 'and Sons', 'Ltd'];
const JOB_TITLES = ['Engineer', 'Analyst', 'Designer', 'Manager', 'Consultant', 'Architect'];
const DOMAINS = ['example.com', 'example.net', 'example.org'];
const PRODUCTS = ['Chair', 'Table', 'Keyboard', 'Lamp', 'Bottle', 'Shirt', 'Shoes'];
const DEPARTMENTS = ['Books', 'Garden', 'Tools', 'Music', 'Toys', 'Sports'];
const CURRENCY_CODES = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD'];
const LOCALES = ['en', 'fr', 'de', 'es', 'pt', 'ja'];
const MIME_TYPES = ['application/json', 'text/plain', 'text/html', 'image/png', 'application/xml'];
const FILE_EXTENSIONS = ['json', 'txt', 'html', 'png', 'xml', 'csv'];
const PROTOCOLS = ['http', 'https'];
const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

/** Web Crypto, in browsers and Node alike (this package is typed without either's globals). */
const webCrypto = (
  globalThis as unknown as {
    crypto: { getRandomValues(array: Uint32Array): Uint32Array; randomUUID(): string };
  }
).crypto;

/** A whole number from min to max, both included. */
function int(min: number, max: number): number {
  const range = max - min + 1;
  const [n] = webCrypto.getRandomValues(new Uint32Array(1));
  return min + ((n ?? 0) % range);
}
const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)]!;
const chars = (alphabet: string, length: number): string =>
  Array.from({ length }, () => alphabet[int(0, alphabet.length - 1)]).join('');
const lower = (s: string): string => s.toLowerCase();
const DAY_MS = 86_400_000;
const dateIn = (fromMs: number, toMs: number): Date => new Date(fromMs + Math.random() * (toMs - fromMs));

const GENERATORS: Record<string, () => string> = {
  $guid: () => webCrypto.randomUUID(),
  $randomUUID: () => webCrypto.randomUUID(),
  $timestamp: () => String(Math.floor(Date.now() / 1000)),
  $isoTimestamp: () => new Date().toISOString(),
  $randomInt: () => String(int(0, 1000)),
  $randomAlphaNumeric: () => chars(ALPHANUMERIC, 1),
  $randomBoolean: () => String(int(0, 1) === 1),
  $randomColor: () => pick(COLORS),
  $randomHexColor: () => `#${chars(HEX, 6)}`,
  $randomAbbreviation: () => pick(['SQL', 'PCI', 'JSON', 'HTTP', 'XML', 'TCP', 'SMTP']),
  $randomIP: () => [int(1, 254), int(0, 255), int(0, 255), int(1, 254)].join('.'),
  $randomIPV6: () => Array.from({ length: 8 }, () => chars(HEX, 4)).join(':'),
  $randomMACAddress: () => Array.from({ length: 6 }, () => chars(HEX, 2)).join(':'),
  $randomPassword: () => chars(ALPHANUMERIC, 15),
  $randomLocale: () => pick(LOCALES),
  $randomUserAgent: () => `Mozilla/5.0 (X11; Linux x86_64) AqaDynamic/${int(1, 99)}.0`,
  $randomProtocol: () => pick(PROTOCOLS),
  $randomSemver: () => `${int(0, 9)}.${int(0, 9)}.${int(0, 9)}`,
  $randomFirstName: () => pick(FIRST_NAMES),
  $randomLastName: () => pick(LAST_NAMES),
  $randomFullName: () => `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`,
  $randomNamePrefix: () => pick(['Mr.', 'Ms.', 'Mrs.', 'Dr.']),
  $randomNameSuffix: () => pick(['Jr.', 'Sr.', 'II', 'PhD']),
  $randomJobTitle: () => pick(JOB_TITLES),
  $randomJobArea: () => pick(DEPARTMENTS),
  $randomJobType: () => pick(JOB_TITLES),
  $randomPhoneNumber: () => `${int(200, 999)}-${int(200, 999)}-${String(int(0, 9999)).padStart(4, '0')}`,
  $randomPhoneNumberExt: () =>
    `${int(1, 99)}-${int(200, 999)}-${int(200, 999)}-${String(int(0, 9999)).padStart(4, '0')}`,
  $randomCity: () => pick(CITIES),
  $randomStreetName: () => pick(STREETS),
  $randomStreetAddress: () => `${int(1, 9999)} ${pick(STREETS)}`,
  $randomCountry: () => pick(COUNTRIES),
  $randomCountryCode: () => pick(COUNTRY_CODES),
  $randomLatitude: () => (Math.random() * 180 - 90).toFixed(4),
  $randomLongitude: () => (Math.random() * 360 - 180).toFixed(4),
  $randomPrice: () => (int(100, 100_000) / 100).toFixed(2),
  $randomCurrencyCode: () => pick(CURRENCY_CODES),
  $randomBankAccount: () => String(int(10_000_000, 99_999_999)),
  $randomCompanyName: () => `${pick(LAST_NAMES)} ${pick(COMPANY_SUFFIXES)}`,
  $randomCompanySuffix: () => pick(COMPANY_SUFFIXES),
  $randomProduct: () => pick(PRODUCTS),
  $randomProductName: () =>
    `${pick(COLORS)} ${pick(WORDS)} ${pick(PRODUCTS)}`.replace(/^./, (c) => c.toUpperCase()),
  $randomDepartment: () => pick(DEPARTMENTS),
  $randomDateFuture: () => dateIn(Date.now() + DAY_MS, Date.now() + 365 * DAY_MS).toString(),
  $randomDatePast: () => dateIn(Date.now() - 365 * DAY_MS, Date.now() - DAY_MS).toString(),
  $randomDateRecent: () => dateIn(Date.now() - DAY_MS, Date.now()).toString(),
  $randomWeekday: () => pick(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']),
  $randomMonth: () => pick(['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August']),
  $randomDomainName: () => `${lower(pick(LAST_NAMES))}.${pick(['com', 'net', 'org', 'io'])}`,
  $randomDomainSuffix: () => pick(['com', 'net', 'org', 'io', 'info']),
  $randomDomainWord: () => lower(pick(LAST_NAMES)),
  $randomEmail: () => `${lower(pick(FIRST_NAMES))}.${lower(pick(LAST_NAMES))}${int(1, 999)}@${pick(DOMAINS)}`,
  $randomExampleEmail: () => `${lower(pick(FIRST_NAMES))}${int(1, 999)}@${pick(DOMAINS)}`,
  $randomUserName: () => `${pick(FIRST_NAMES)}.${pick(LAST_NAMES)}${int(1, 99)}`,
  $randomUrl: () => `https://${lower(pick(LAST_NAMES))}.${pick(['com', 'net', 'org'])}`,
  $randomFileName: () => `${pick(WORDS)}_${pick(WORDS)}.${pick(FILE_EXTENSIONS)}`,
  $randomFileExt: () => pick(FILE_EXTENSIONS),
  $randomMimeType: () => pick(MIME_TYPES),
  $randomWord: () => pick(WORDS),
  $randomWords: () => Array.from({ length: int(2, 5) }, () => pick(WORDS)).join(' '),
  $randomLoremWord: () => pick(WORDS),
  $randomLoremWords: () => Array.from({ length: 3 }, () => pick(WORDS)).join(' '),
  $randomLoremSentence: () => {
    const words = Array.from({ length: int(4, 9) }, () => pick(WORDS)).join(' ');
    return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
  },
  $randomLoremSlug: () => Array.from({ length: 3 }, () => pick(WORDS)).join('-'),
};

/** The names of the dynamic variables this product gives, `$`-prefixed as written in `{{…}}`. */
export const DYNAMIC_VARIABLE_NAMES: readonly string[] = Object.keys(GENERATORS);

/** Whether `name` (as written between the braces) is a dynamic variable. */
export function isDynamicVariable(name: string): boolean {
  return Object.hasOwn(GENERATORS, name);
}

/** A fresh value of the dynamic variable `name`, or undefined when it is not one. */
export function dynamicValue(name: string): string | undefined {
  return Object.hasOwn(GENERATORS, name) ? GENERATORS[name]!() : undefined;
}
