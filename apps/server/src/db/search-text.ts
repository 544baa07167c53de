/**
 * Plan search (docs/reference/02-running.md §5: case-insensitive on name and description). SQLite's LIKE and lower() fold
 * ASCII letters only, so "école" would not find "ÉCOLE": the server keeps a folded copy of each plan's
 * name and description (`plans.search_text`) and folds the query the same way in JavaScript, which
 * folds every script (É/é, Ä/ä, Σ/σ), and treats composed and decomposed accents alike.
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** The text a plan is found by: its name and description, folded. */
export function planSearchText(name: string, description: string): string {
  return foldForSearch(`${name}\n${description}`);
}
