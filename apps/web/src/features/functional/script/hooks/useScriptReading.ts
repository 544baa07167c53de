import { useEffect, useRef, useState } from 'react';
import type { ScriptRead } from '../model/script-read';
import type { ScriptFramework } from '../model/script-form';
import { answerRead, type ReadAnswer, type ReadRequest } from '../model/script-reading';
import type { SeleniumRead } from '../model/selenium-read';

/** How long typing must pause before the script is read again, in milliseconds. */
export const READ_DELAY_MS = 250;

const UNREAD_TAURUS: ScriptRead = { ok: false, message: '', warnings: [] };
const UNREAD_SELENIUM: SeleniumRead = { ok: false, message: '', warnings: [], unknown: [] };

export interface ScriptReading {
  /** The Taurus reader's answer (unread while the framework is Selenium). */
  read: ScriptRead;
  /** The Selenium reader's answer (unread while the framework is Taurus). */
  seleniumRead: SeleniumRead;
  /** The text these answers were read from; the editor shows their marks only on that text. */
  readFor: string;
}

/** A reader in a worker when the browser has them; else in the page, after the same pause. */
function startReader(onAnswer: (answer: ReadAnswer) => void): {
  read: (request: ReadRequest) => void;
  stop: () => void;
} {
  if (typeof Worker !== 'undefined') {
    try {
      const worker = new Worker(new URL('../model/script-read.worker.ts', import.meta.url), {
        type: 'module',
      });
      worker.onmessage = (event: MessageEvent<ReadAnswer>) => onAnswer(event.data);
      return { read: (request) => worker.postMessage(request), stop: () => worker.terminate() };
    } catch {
      // A browser that refuses the worker reads in the page, as before.
    }
  }
  let stopped = false;
  return {
    read: (request) => {
      if (!stopped) onAnswer(answerRead(request));
    },
    stop: () => {
      stopped = true;
    },
  };
}

/**
 * The script as its framework's reader reads it (docs/reference/02-running.md §2 "Functional Script
 * Input screen"), READ_DELAY_MS after the last change, in a worker: typing never waits for the reader,
 * and the answer for an older text than the newest asked is dropped. Until the first answer the script
 * is unread; while a newer one is on its way the last answer stays on screen.
 */
export function useScriptReading(
  text: string,
  framework: ScriptFramework,
  files: Readonly<Record<string, string>>,
): ScriptReading {
  const [answer, setAnswer] = useState<ReadAnswer | null>(null);
  const reader = useRef<ReturnType<typeof startReader> | null>(null);
  const asked = useRef(0);

  useEffect(() => {
    const started = startReader((next) => {
      if (next.id === asked.current) setAnswer(next);
    });
    reader.current = started;
    return () => {
      started.stop();
      reader.current = null;
    };
  }, []);

  useEffect(() => {
    const id = ++asked.current;
    if (text.trim() === '') {
      // Nothing to read: answered at once, so a cleared editor clears its warnings with it.
      setAnswer(answerRead({ id, framework, text, files }));
      return;
    }
    const timer = setTimeout(() => reader.current?.read({ id, framework, text, files }), READ_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, framework, files]);

  return {
    read: answer?.framework === 'taurus' && framework === 'taurus' ? answer.read : UNREAD_TAURUS,
    seleniumRead:
      answer?.framework === 'selenium' && framework === 'selenium' ? answer.read : UNREAD_SELENIUM,
    readFor: answer?.text ?? '',
  };
}
