import * as DialogPrimitive from '@radix-ui/react-dialog';
import { ArrowLeft, Bot, ClipboardCheck, MessageCircleQuestion, SlidersHorizontal, X } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { useT, type MessageKey } from '@/i18n';
import type { AdjustPlan } from '../hooks/useAdjustPlan';
import type { ConversationState } from '../hooks/useConversation';
import type { ReviewState } from '../hooks/useReview';
import { AdjustView } from './AdjustView';
import { AskView } from './AskView';
import { ReviewView } from './ReviewView';

export type AssistantView = 'menu' | 'adjust' | 'review' | 'ask';

const OFFERS: readonly {
  view: Exclude<AssistantView, 'menu'>;
  title: MessageKey;
  text: MessageKey;
  icon: ReactNode;
}[] = [
  {
    view: 'adjust',
    title: 'assistant.offer.adjust',
    text: 'assistant.offer.adjustText',
    icon: <SlidersHorizontal aria-hidden className="size-4" />,
  },
  {
    view: 'review',
    title: 'assistant.offer.review',
    text: 'assistant.offer.reviewText',
    icon: <ClipboardCheck aria-hidden className="size-4" />,
  },
  {
    view: 'ask',
    title: 'assistant.offer.ask',
    text: 'assistant.offer.askText',
    icon: <MessageCircleQuestion aria-hidden className="size-4" />,
  },
];

/**
 * James's side panel (docs/reference/01-authoring.md §1): the greeting with the user's name, the three
 * offers, and the view of the one chosen. A non-modal dialog: the plan stays usable beside it, so an
 * applied change can be seen in the form at once; clicking the page does not close it.
 */
export function AssistantPanel({
  name,
  shortcut,
  view,
  onView,
  planOnScreen,
  adjust,
  review,
  conversation,
  onNavigate,
}: {
  name: string;
  shortcut: string;
  view: AssistantView;
  onView: (view: AssistantView) => void;
  planOnScreen: 'performance' | 'functional' | null;
  adjust: AdjustPlan;
  review: { state: ReviewState; load: () => void };
  conversation: ConversationState;
  onNavigate: () => void;
}) {
  const t = useT();
  const offer = OFFERS.find((item) => item.view === view);
  // The chosen offer's button goes away with the menu: focus moves to the view's heading, and back to the
  // menu's first offer (docs/design.md §10).
  const heading = useRef<HTMLHeadingElement>(null);
  const menu = useRef<HTMLElement>(null);
  const shown = useRef(view);
  useEffect(() => {
    if (shown.current === view) return;
    shown.current = view;
    if (view === 'menu') menu.current?.querySelector('button')?.focus();
    else heading.current?.focus();
  }, [view]);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Content
        onInteractOutside={(event) => event.preventDefault()}
        className="fixed inset-y-0 right-0 z-40 flex h-dvh w-full flex-col border-l border-border bg-card shadow-pop focus:outline-none data-[state=open]:animate-fade-in sm:w-[26rem]"
        data-testid="james-panel"
      >
        <header className="flex items-start gap-3 border-b border-border px-4 py-3">
          <span
            aria-hidden
            className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-primary-foreground"
          >
            <Bot className="size-5" />
          </span>
          <div className="min-w-0 flex-1">
            <DialogPrimitive.Title className="text-base font-semibold leading-6">
              {t('assistant.title')}
            </DialogPrimitive.Title>
            <p className="text-xs text-muted-foreground">{t('assistant.role')}</p>
          </div>
          <DialogPrimitive.Close asChild>
            <Button
              variant="ghost"
              size="icon-sm"
              aria-label={t('assistant.close')}
              data-testid="james-close"
            >
              <X />
            </Button>
          </DialogPrimitive.Close>
        </header>

        <div className="flex-1 space-y-4 overflow-y-auto px-4 py-4">
          <DialogPrimitive.Description className="text-sm leading-6" data-testid="james-greeting">
            {t('assistant.greeting', { name })}
          </DialogPrimitive.Description>

          {view === 'menu' || !offer ? (
            <nav ref={menu} aria-label={t('assistant.offers')} className="space-y-2">
              {OFFERS.map((item) => (
                <button
                  key={item.view}
                  type="button"
                  onClick={() => onView(item.view)}
                  className="flex w-full items-start gap-3 rounded-lg border border-border bg-background p-3 text-left transition-colors hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  data-testid={`james-offer-${item.view}`}
                >
                  <span className="mt-0.5 text-primary">{item.icon}</span>
                  <span className="min-w-0">
                    <span className="block text-sm font-semibold">{t(item.title)}</span>
                    <span className="block text-[13px] leading-5 text-muted-foreground">{t(item.text)}</span>
                  </span>
                </button>
              ))}
              <p className="pt-1 text-xs text-muted-foreground">
                {t('assistant.shortcutHint', { shortcut })}
              </p>
            </nav>
          ) : (
            <section aria-labelledby="james-view-title" className="space-y-3">
              <div className="flex items-center gap-2">
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={t('assistant.back')}
                  onClick={() => onView('menu')}
                  data-testid="james-back"
                >
                  <ArrowLeft />
                </Button>
                <h2
                  id="james-view-title"
                  ref={heading}
                  tabIndex={-1}
                  className="text-sm font-semibold focus:outline-none"
                >
                  {t(offer.title)}
                </h2>
              </div>
              {view === 'adjust' && (
                <AdjustView adjust={adjust} planOnScreen={planOnScreen} onNavigate={onNavigate} />
              )}
              {view === 'review' && (
                <ReviewView state={review.state} load={review.load} onNavigate={onNavigate} />
              )}
              {view === 'ask' && <AskView conversation={conversation} onNavigate={onNavigate} />}
            </section>
          )}
        </div>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
