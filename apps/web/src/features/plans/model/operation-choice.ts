import type { ImportedApi } from '../queries/import-api';

/**
 * The import screen's choice of operations (docs/reference/01-authoring.md §2 "Performance: script
 * upload"): a document of more than PICK_ABOVE operations (Stripe's 417, GitHub's 771) opens a list to
 * pick from — searched by path, method, tag, operationId and name, filtered by tag and method — before
 * step 2; smaller ones are imported whole, as before.
 */
export const PICK_ABOVE = 10;

/** One operation of the list: where it is in the import's entries, and what it is searched by. */
export interface ImportOperation {
  /** Index into the import's entries (and its steps, which the server sends in the same order). */
  index: number;
  method: string;
  /** The path as the document writes it ("/pets/{petId}"), else the URL's. */
  path: string;
  name: string;
  tags: string[];
  operationId: string;
}

/** The filter of the list: words to find, a tag ("" any), a method ("" any). */
export interface OperationFilter {
  query: string;
  tag: string;
  method: string;
}

export const NO_FILTER: OperationFilter = { query: '', tag: '', method: '' };

/** A tag for operations without one, so that the tag filter reaches them too. */
export const UNTAGGED = '';

/** The operations of an import, from the server's `apis` (same order as `steps`), else from the entries. */
export function importOperations(
  entries: readonly { method: string; url: string; name: string }[],
  apis: readonly ImportedApi[] | undefined,
): ImportOperation[] {
  return entries.map((entry, index) => {
    const api = apis?.[index];
    return {
      index,
      method: (api?.method ?? entry.method).toUpperCase(),
      path: api?.path || pathOf(entry.url),
      name: api?.name ?? entry.name,
      tags: api?.tags ?? [],
      operationId: api?.operationId ?? '',
    };
  });
}

function pathOf(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/[^?#]*)?/i.exec(url);
  return match ? (match[1] ?? '/') : url;
}

/** Every tag, in the order first met, and every method, in the order first met. */
export function operationFacets(operations: readonly ImportOperation[]): {
  tags: string[];
  methods: string[];
} {
  const tags = new Set<string>();
  const methods = new Set<string>();
  for (const operation of operations) {
    for (const tag of operation.tags) tags.add(tag);
    methods.add(operation.method);
  }
  return { tags: [...tags], methods: [...methods] };
}

/**
 * The operations the filter keeps: each word of the query (case-insensitive) found in the method, path,
 * a tag, the operationId or the name; the tag and the method, when chosen, matched exactly.
 */
export function filterOperations(
  operations: readonly ImportOperation[],
  filter: OperationFilter,
): ImportOperation[] {
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  return operations.filter((operation) => {
    if (filter.method && operation.method !== filter.method) return false;
    if (filter.tag && !operation.tags.includes(filter.tag)) return false;
    if (words.length === 0) return true;
    const text = [operation.method, operation.path, operation.operationId, operation.name, ...operation.tags]
      .join('\n')
      .toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
