import { useEffect, useState } from 'react';
import { isAbortError } from '@/lib/api';
import { fetchFunctionalScreenshot } from '../../queries/result-api';

export type ScreenshotState =
  { state: 'loading' } | { state: 'ready'; url: string } | { state: 'failed'; error: unknown };

/**
 * A UI step's screenshot as an object URL (docs/design.md §9 "UI tests"): the call needs the session's
 * bearer header, which an <img src> cannot send, so the JPEG is fetched as bytes; the URL is revoked when
 * the screen lets the picture go, so a long result does not keep every image in memory.
 */
export function useScreenshot(testId: string, shotId: string): ScreenshotState {
  // Kept with the address it answers, so a new screenshot reads as loading until its own answer comes.
  const key = `${testId}/${shotId}`;
  const [shot, setShot] = useState<{ key: string; answer: ScreenshotState } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    fetchFunctionalScreenshot(testId, shotId, controller.signal).then(
      (blob) => {
        if (controller.signal.aborted) return;
        url = URL.createObjectURL(blob);
        setShot({ key, answer: { state: 'ready', url } });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        setShot({ key, answer: { state: 'failed', error } });
      },
    );
    return () => {
      controller.abort();
      if (url !== null) URL.revokeObjectURL(url);
    };
  }, [key, testId, shotId]);

  return shot?.key === key ? shot.answer : { state: 'loading' };
}
