import type { AssistantLanguage, Review } from '@aqa/plan';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError } from '@/lib/api';
import { fetchReview } from '../queries/assistant-api';

export type ReviewState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; review: Review }
  | { status: 'failed'; error: unknown };

/** Review saved plans (docs/design.md §10), loaded when first shown and again on request. */
export function useReview(language: AssistantLanguage) {
  const [state, setState] = useState<ReviewState>({ status: 'idle' });
  const controller = useRef<AbortController | null>(null);

  const load = useCallback(() => {
    controller.current?.abort();
    const next = new AbortController();
    controller.current = next;
    setState({ status: 'loading' });
    fetchReview(language, next.signal).then(
      (review) => {
        if (!next.signal.aborted) setState({ status: 'ready', review });
      },
      (error: unknown) => {
        if (!next.signal.aborted && !isAbortError(error)) setState({ status: 'failed', error });
      },
    );
  }, [language]);

  useEffect(() => () => controller.current?.abort(), []);

  return { state, load };
}
