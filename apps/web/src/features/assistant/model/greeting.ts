import type { SessionUser } from '@/lib/session';

/**
 * The {name} of James's greeting (docs/reference/01-authoring.md §1): the user's first name, else the
 * name they sign in with, else the part of their email before the @.
 */
export function greetingName(user: SessionUser | undefined): string {
  const first = user?.firstName?.trim();
  if (first) return first;
  const username = user?.username.trim() ?? '';
  if (username && !username.includes('@')) return username;
  const email = (user?.email || username).trim();
  return email.split('@')[0] ?? email;
}

/** The shortcut as the keyboard shows it: ⌘J on Apple machines, Ctrl+J elsewhere. */
export function shortcutLabel(platform: string): string {
  return /mac|iphone|ipad/i.test(platform) ? '⌘J' : 'Ctrl+J';
}

/** Ctrl+J or ⌘J, with no other modifier. */
export function isShortcut(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>,
) {
  return (
    event.key.toLowerCase() === 'j' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey
  );
}
