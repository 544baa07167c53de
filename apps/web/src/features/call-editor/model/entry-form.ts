import {
  AUTH_TYPES,
  BODY_METHODS,
  DEFAULT_TIMEOUT_S,
  DEFAULT_THINK_TIME,
  splitClientCredentials,
  type Authorization,
  type AuthType,
  type HttpMethod,
  type UrlEntry,
  type ValidationItem,
} from '@aqa/plan';
import { authorizationFromHeaderValue, isAuthorizationHeader } from './authorization-header';

export type ExtractType = UrlEntry['extractType'];
export type AssertionType = UrlEntry['assertionType'];
export type AssertionOperator = UrlEntry['assertionOperator'];
export type ValidationType = ValidationItem['type'];

/**
 * One call as the call editor edits it (docs/reference/01-authoring.md §2, §5; docs/reference/02-running.md
 * §2): its URL, method, parameter and header rows, authorization, payload and checks, as plain state and a
 * pure reducer. The performance plan's form holds a list of these (plans/model/plan-form.ts) and each
 * functional API holds one, so the row and tab rules — one parameter and header row always kept, POST/PUT/
 * PATCH opening the Payload tab — hold in both editors and can be tested without rendering. Values are
 * kept as typed (text); each editor's form-to-model code turns them into its model.
 */

export const ENTRY_TABS = ['payload', 'parameters', 'headers', 'authorization'] as const;
export type EntryTab = (typeof ENTRY_TABS)[number];

export interface KeyValueRow {
  /** Stable across edits and moves (React key, error mapping). */
  id: string;
  name: string;
  value: string;
}

export type RowList = 'parameters' | 'headers';

/** Authorization as the editor shows it: OAuth2's client id and secret apart (joined "id:secret" on save). */
export interface AuthForm {
  type: AuthType;
  token: string;
  username: string;
  password: string;
  keyName: string;
  keyValue: string;
  in: 'header' | 'query';
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  scope: string;
}

/** The URL entry fields the form edits in another shape than the model's (text as typed, rows, OAuth2 apart). */
type ReshapedEntryFields =
  'name' | 'parameters' | 'headers' | 'authorization' | 'transactionRate' | 'timeout' | 'flow';

/**
 * A URL entry in the form: typed from the model's UrlEntry, so a field added to the schema is part of the
 * form at once (and `createEntry` does not compile until it has a starting value).
 */
export type EntryForm = Omit<UrlEntry, ReshapedEntryFields> & {
  id: string;
  /** The API's name: edited (and required) on the script-upload screen, kept as loaded on the URL screen. */
  name: string;
  parameters: KeyValueRow[];
  headers: KeyValueRow[];
  authorization: AuthForm;
  /** Percent as typed; blank means 100. */
  transactionRate: string;
  /** Seconds as typed. */
  timeout: string;
  /** The performance plan's flow of this call, as typed; blank: none (docs/adr/0027-load-profiles.md "3. Flows"). */
  flow: string;
  /** The call editor's open tab. */
  tab: EntryTab;
};

let sequence = 0;

/** A process-unique id for rows, entries and validation items. */
export function newId(prefix: string): string {
  sequence += 1;
  return `${prefix}-${Date.now().toString(36)}-${sequence.toString(36)}`;
}

export function emptyRow(): KeyValueRow {
  return { id: newId('row'), name: '', value: '' };
}

export function emptyAuth(): AuthForm {
  return {
    type: 'none',
    token: '',
    username: '',
    password: '',
    keyName: '',
    keyValue: '',
    in: 'header',
    clientId: '',
    clientSecret: '',
    tokenUrl: '',
    scope: '',
  };
}

/** The tab an editor opens on: Payload for methods that send one, Parameters otherwise. */
export function defaultTab(method: HttpMethod): EntryTab {
  return BODY_METHODS.includes(method) ? 'payload' : 'parameters';
}

export function createEntry(overrides: Partial<EntryForm> = {}): EntryForm {
  const method = overrides.method ?? 'GET';
  return {
    id: newId('api'),
    name: '',
    method,
    url: '',
    parameters: [emptyRow()],
    headers: [emptyRow()],
    authorization: emptyAuth(),
    payload: '',
    extractType: 'text',
    extractName: '',
    extractValue: '',
    assertionType: 'json',
    assertionPath: '',
    assertionOperator: 'equals',
    assertionValue: '',
    thinkTime: DEFAULT_THINK_TIME,
    transactionRate: '',
    timeout: String(DEFAULT_TIMEOUT_S),
    validations: [],
    flow: '',
    tab: defaultTab(method),
    ...overrides,
  };
}

/** Editable entry fields that are plain values (lists and authorization have their own actions). */
export type EntryValueField = Exclude<
  keyof EntryForm,
  'id' | 'parameters' | 'headers' | 'authorization' | 'validations' | 'method' | 'tab'
>;

export interface NewValidationItem {
  type: ValidationType;
  expected_value: string;
  description: string;
}

/** An edit of one call; every action names the call it is for. */
export type EntryFormAction =
  | { type: 'setEntryValue'; entryId: string; field: EntryValueField; value: string }
  | { type: 'setMethod'; entryId: string; method: HttpMethod }
  | { type: 'setTab'; entryId: string; tab: EntryTab }
  | { type: 'addRow'; entryId: string; list: RowList; row: KeyValueRow }
  | { type: 'removeRow'; entryId: string; list: RowList; rowId: string }
  | { type: 'setRow'; entryId: string; list: RowList; rowId: string; field: 'name' | 'value'; value: string }
  | { type: 'setAuth'; entryId: string; patch: Partial<AuthForm> }
  | { type: 'addValidation'; entryId: string; id: string; item: NewValidationItem }
  | { type: 'removeValidation'; entryId: string; itemId: string };

export function canMoveUp(index: number): boolean {
  return index > 0;
}

export function canMoveDown(index: number, count: number): boolean {
  return index < count - 1;
}

/** A row may be removed while more than one remains: the editor always keeps one to type into. */
export function canRemoveRow(rows: readonly KeyValueRow[]): boolean {
  return rows.length > 1;
}

/** "Validation N": the next free sequence number among the entry's auto-named items. */
export function nextValidationName(items: readonly ValidationItem[]): string {
  let highest = items.length;
  for (const item of items) {
    const match = /^Validation (\d+)$/.exec(item.name);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return `Validation ${highest + 1}`;
}

/** "List pets" → "List pets_copy"; an unnamed API is named by its method and URL first. */
export function duplicateName(entry: Pick<EntryForm, 'name' | 'method' | 'url'>): string {
  const base = entry.name.trim() || `${entry.method} ${entry.url.trim()}`.trim();
  return `${base}_copy`;
}

/**
 * docs/reference/01-authoring.md §9: "A duplicated API gets its URL suffixed with _copy". A blank URL stays blank: there is no
 * address to mark, and "_copy" alone would only read as a URL that was typed.
 */
export function duplicateUrl(url: string): string {
  return url.trim() === '' ? url : `${url}_copy`;
}

/**
 * A copy with ids of its own, placed by the caller (the copy must never share row ids with the original).
 * Its URL follows the spec; its name is suffixed too, so that the two cards can be told apart.
 */
export function copyEntry(entry: EntryForm): EntryForm {
  return {
    ...entry,
    id: newId('api'),
    name: duplicateName(entry),
    url: duplicateUrl(entry.url),
    parameters: entry.parameters.map((row) => ({ ...row, id: newId('row') })),
    headers: entry.headers.map((row) => ({ ...row, id: newId('row') })),
    authorization: { ...entry.authorization },
    validations: entry.validations.map((item) => ({ ...item, id: newId('validation') })),
  };
}

export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}

/** The list with one item moved, or null when a place is outside the list or both are the same. */
export function movedWithin<T>(items: readonly T[], from: number, to: number): T[] | null {
  const count = items.length;
  if (from === to || from < 0 || to < 0 || from >= count || to >= count) return null;
  return moveItem(items, from, to);
}

/** The list with a copy placed right after the item `isOriginal` picks, or null when there is none. */
export function withCopyAfter<T>(
  items: readonly T[],
  isOriginal: (item: T) => boolean,
  copy: (item: T) => T,
): T[] | null {
  const index = items.findIndex(isOriginal);
  const original = items[index];
  if (original === undefined) return null;
  const next = [...items];
  next.splice(index + 1, 0, copy(original));
  return next;
}

/** Pure: returns the same call when an action is refused (last row, blank validation) or changes nothing. */
export function entryFormReducer(entry: EntryForm, action: EntryFormAction): EntryForm {
  switch (action.type) {
    case 'setEntryValue':
      return entry[action.field] === action.value ? entry : { ...entry, [action.field]: action.value };
    case 'setMethod':
      return {
        ...entry,
        method: action.method,
        // docs/reference/01-authoring.md §2: choosing POST, PUT or PATCH switches the editor to the Payload tab.
        tab: BODY_METHODS.includes(action.method) ? 'payload' : entry.tab,
      };
    case 'setTab':
      return entry.tab === action.tab ? entry : { ...entry, tab: action.tab };
    case 'addRow':
      return { ...entry, [action.list]: [...entry[action.list], action.row] };
    case 'removeRow': {
      const rows = entry[action.list];
      if (!canRemoveRow(rows) || !rows.some((row) => row.id === action.rowId)) return entry;
      return { ...entry, [action.list]: rows.filter((row) => row.id !== action.rowId) };
    }
    case 'setRow':
      return {
        ...entry,
        [action.list]: entry[action.list].map((row) =>
          row.id === action.rowId ? { ...row, [action.field]: action.value } : row,
        ),
      };
    case 'setAuth':
      return { ...entry, authorization: { ...entry.authorization, ...action.patch } };
    case 'addValidation': {
      const expected = action.item.expected_value.trim();
      // docs/reference/01-authoring.md §5: an item is added only when its expected value is not blank.
      if (expected === '') return entry;
      return {
        ...entry,
        validations: [
          ...entry.validations,
          {
            id: action.id,
            name: nextValidationName(entry.validations),
            type: action.item.type,
            expected_value: expected,
            description: action.item.description.trim(),
          },
        ],
      };
    }
    case 'removeValidation':
      return { ...entry, validations: entry.validations.filter((item) => item.id !== action.itemId) };
  }
}

// ---------------------------------------------------------------------------------------------------------
// A saved call → the form, and the form's authorization → the model.

/** Name/value pairs as editor rows; none gives the one blank row the editor always keeps. */
export function rowsOf(pairs: readonly { name: string; value: string }[]): KeyValueRow[] {
  const rows = pairs.map((pair) => ({ id: newId('row'), name: pair.name, value: pair.value }));
  return rows.length > 0 ? rows : [emptyRow()];
}

/**
 * The Authorization header is edited in its own field (docs/reference/01-authoring.md §5). A loaded or
 * imported plan that carries one as a header gets it moved to the Authorization tab when the tab is free
 * and the scheme is Bearer or Basic (see authorization-header.ts); otherwise the row stays and is sent as
 * written.
 */
export function liftAuthorizationHeader(
  headers: { name: string; value: string }[],
  auth: AuthForm,
): { headers: { name: string; value: string }[]; auth: AuthForm } {
  if (auth.type !== 'none') return { headers, auth };
  const index = headers.findIndex((header) => isAuthorizationHeader(header.name));
  const header = headers[index];
  const moved = header ? authorizationFromHeaderValue(header.value) : null;
  if (!moved) return { headers, auth };
  return { headers: headers.filter((_, i) => i !== index), auth: { ...auth, ...moved } };
}

/** The model's authorization as the Authorization tab edits it: OAuth2's "id:secret" split in two. */
export function authFormOf(auth: Authorization): AuthForm {
  const oauth = auth.type === 'oauth2' ? splitClientCredentials(auth.token) : null;
  return {
    type: (AUTH_TYPES as readonly string[]).includes(auth.type) ? auth.type : 'none',
    token: oauth ? '' : auth.token,
    username: auth.username,
    password: auth.password,
    keyName: auth.keyName,
    keyValue: auth.keyValue,
    in: auth.in,
    clientId: oauth?.clientId ?? '',
    clientSecret: oauth?.clientSecret ?? '',
    tokenUrl: auth.tokenUrl,
    scope: auth.scope,
  };
}

/** The Authorization tab as the model's authorization: OAuth2's client id and secret joined again. */
export function authorizationToModel(auth: AuthForm): Authorization {
  const clientId = auth.clientId.trim();
  // docs/reference/01-authoring.md §3: OAuth2 keeps the client id and secret joined by a colon in token.
  const joined = clientId !== '' || auth.clientSecret !== '' ? `${clientId}:${auth.clientSecret}` : '';
  return {
    type: auth.type,
    token: auth.type === 'oauth2' ? joined : auth.token,
    username: auth.username,
    password: auth.password,
    keyName: auth.keyName,
    keyValue: auth.keyValue,
    in: auth.in,
    tokenUrl: auth.tokenUrl,
    scope: auth.scope,
  };
}
