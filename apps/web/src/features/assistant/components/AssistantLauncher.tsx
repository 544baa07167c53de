import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Bot } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useI18n } from '@/i18n';
import { useSession } from '@/lib/session';
import { useCurrentPlan } from '../current-plan';
import { useAdjustPlan } from '../hooks/useAdjustPlan';
import { useConversation } from '../hooks/useConversation';
import { useReview } from '../hooks/useReview';
import { greetingName, isShortcut, shortcutLabel } from '../model/greeting';
import { AssistantPanel, type AssistantView } from './AssistantPanel';

/**
 * The header's "Ask James" button and the panel it opens (docs/reference/01-authoring.md §1, docs/design.md
 * §10), on every signed-in screen; Ctrl+J (⌘J on a Mac) opens and closes it from anywhere, Escape closes
 * it. What James is doing (a preview, an Undo, the conversation) lives here, so it survives closing.
 */
export function AssistantLauncher({ className }: { className?: string }) {
  const { t, language } = useI18n();
  const session = useSession();
  const [open, setOpen] = useState(false);
  const [view, setView] = useState<AssistantView>('menu');
  const current = useCurrentPlan();
  const adjust = useAdjustPlan(current);
  const review = useReview(language);
  const conversation = useConversation(language);
  const shortcut = shortcutLabel(typeof navigator === 'undefined' ? '' : navigator.platform);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isShortcut(event)) return;
      event.preventDefault();
      setOpen((was) => !was);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen} modal={false}>
      <DialogPrimitive.Trigger asChild>
        <Button
          variant="outline"
          size="sm"
          className={className}
          title={t('assistant.openTitle', { shortcut })}
          aria-keyshortcuts="Control+J Meta+J"
          data-testid="james-open"
        >
          <Bot />
          <span className="max-sm:sr-only">{t('assistant.open')}</span>
        </Button>
      </DialogPrimitive.Trigger>
      <AssistantPanel
        name={greetingName(session?.user)}
        shortcut={shortcut}
        view={view}
        onView={setView}
        planOnScreen={current?.current.kind ?? null}
        adjust={adjust}
        review={review}
        conversation={conversation}
        onNavigate={() => {
          // A link leaves the panel open beside the page on wide screens; on a phone it covers the page.
          if (window.matchMedia('(max-width: 639px)').matches) setOpen(false);
        }}
      />
    </DialogPrimitive.Root>
  );
}
