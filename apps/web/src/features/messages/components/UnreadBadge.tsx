import { useT } from '@/i18n';
import { useUnreadCount } from '../model/unread-count';

/** The unread count on the sidebar's Messages item, live (model/unread-count.ts); nothing at 0. */
export function UnreadBadge() {
  const t = useT();
  const unread = useUnreadCount();
  if (unread === null || unread === 0) return null;
  return (
    <span
      className="ml-auto inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-primary px-1.5 text-[11px] font-semibold leading-none text-primary-foreground"
      data-testid="messages-unread-badge"
      aria-label={t('messages.unreadBadge', { count: unread })}
    >
      {unread > 99 ? '99+' : unread}
    </span>
  );
}
