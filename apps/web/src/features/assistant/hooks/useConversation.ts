import type { AskAnswer, AssistantLanguage, ConversationTurn } from '@aqa/plan';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError } from '@/lib/api';
import { askJames, clearConversation, fetchConversation } from '../queries/assistant-api';

/**
 * Ask James (docs/design.md §10): the user's conversation, kept by the server per user, loaded when the
 * view is first shown; a question shows at once and its answer when it comes.
 */

export type ConversationLoad = 'idle' | 'loading' | 'ready' | { failed: unknown };

export interface PendingQuestion {
  question: string;
  error?: unknown;
}

const HANGUL = /[\u3131-\u318e\uac00-\ud7a3]/u;

/** Korean for a question in Hangul; otherwise the screen's language. */
export function answerLanguage(question: string, screen: AssistantLanguage): AssistantLanguage {
  return HANGUL.test(question) ? 'ko' : screen;
}

export function useConversation(language: AssistantLanguage) {
  const [turns, setTurns] = useState<ConversationTurn[]>([]);
  const [load, setLoad] = useState<ConversationLoad>('idle');
  const [pending, setPending] = useState<PendingQuestion | null>(null);
  const [clearError, setClearError] = useState<unknown>(null);
  const controller = useRef<AbortController | null>(null);

  const open = useCallback(() => {
    if (load !== 'idle') return;
    const next = new AbortController();
    controller.current = next;
    setLoad('loading');
    fetchConversation(next.signal).then(
      (conversation) => {
        if (next.signal.aborted) return;
        setTurns(conversation.turns);
        setLoad('ready');
      },
      (error: unknown) => {
        if (!next.signal.aborted && !isAbortError(error)) setLoad({ failed: error });
      },
    );
  }, [load]);

  useEffect(() => () => controller.current?.abort(), []);

  const ask = async (question: string): Promise<AskAnswer | null> => {
    const trimmed = question.trim();
    if (trimmed === '' || (pending && pending.error === undefined)) return null;
    setPending({ question: trimmed });
    try {
      const answer = await askJames({ question: trimmed, language: answerLanguage(trimmed, language) });
      const turn: ConversationTurn = {
        id: `local-${Date.now()}`,
        question: trimmed,
        answer,
        asked_at: new Date().toISOString(),
      };
      setTurns((previous) => [...previous, turn]);
      setPending(null);
      return answer;
    } catch (error) {
      setPending({ question: trimmed, error });
      return null;
    }
  };

  const clear = async (): Promise<void> => {
    setClearError(null);
    try {
      await clearConversation();
      setTurns([]);
      setPending(null);
    } catch (error) {
      setClearError(error);
    }
  };

  return {
    turns,
    load,
    pending,
    busy: pending !== null && pending.error === undefined,
    clearError,
    open,
    ask,
    clear,
  };
}

export type ConversationState = ReturnType<typeof useConversation>;
