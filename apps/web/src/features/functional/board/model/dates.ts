/** A date and time in the user's language, or null for a missing or unreadable value. */
export function formatWhen(value: string | null | undefined, locale: string): string | null {
  if (!value) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return null;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

/** A date alone in the user's language ("Nov 26, 2026"), or null. */
export function formatDay(value: string | null | undefined, locale: string): string | null {
  if (!value) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return null;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(at);
}
