import { useCallback, useEffect, useRef, useState } from 'react';
import { getSpeechRecognition, type SpeechRecognitionLike } from '@/features/auth';

export interface Dictation {
  listening: boolean;
  failed: boolean;
  toggle: () => void;
}

/**
 * One spoken utterance into text through the Web Speech API, in the user's language (the text-command
 * parser understands English and Korean). Events of a recogniser that was stopped are ignored. Where the
 * browser has no recogniser, starting calls `onUnsupported` (docs/design.md §5: the spec's alert), as the sign-in
 * voice box does.
 */
export function useDictation(
  lang: string,
  onText: (text: string) => void,
  onUnsupported: () => void,
): Dictation {
  const [listening, setListening] = useState(false);
  const [failed, setFailed] = useState(false);
  const recognitionRef = useRef<SpeechRecognitionLike | null>(null);
  const onTextRef = useRef(onText);
  const onUnsupportedRef = useRef(onUnsupported);
  useEffect(() => {
    onTextRef.current = onText;
    onUnsupportedRef.current = onUnsupported;
  });

  const stop = useCallback(() => {
    const recognition = recognitionRef.current;
    recognitionRef.current = null;
    recognition?.abort();
    setListening(false);
  }, []);

  const start = useCallback(() => {
    const Recognition = getSpeechRecognition();
    if (!Recognition) {
      onUnsupportedRef.current();
      return;
    }
    const recognition = new Recognition();
    recognition.lang = lang;
    recognition.continuous = false;
    recognition.interimResults = false;
    recognition.maxAlternatives = 1;
    const isCurrent = () => recognitionRef.current === recognition;
    recognition.onresult = (event) => {
      if (!isCurrent()) return;
      recognitionRef.current = null;
      setListening(false);
      const text = Array.from(event.results)
        .map((result) => result[0]?.transcript ?? '')
        .join(' ')
        .trim();
      if (text) onTextRef.current(text);
    };
    recognition.onerror = () => {
      if (!isCurrent()) return;
      recognitionRef.current = null;
      setListening(false);
      setFailed(true);
    };
    recognition.onend = () => {
      if (!isCurrent()) return;
      recognitionRef.current = null;
      setListening(false);
    };
    recognitionRef.current = recognition;
    setFailed(false);
    setListening(true);
    try {
      recognition.start();
    } catch {
      recognitionRef.current = null;
      setListening(false);
      setFailed(true);
    }
  }, [lang]);

  useEffect(
    () => () => {
      const recognition = recognitionRef.current;
      recognitionRef.current = null;
      recognition?.abort();
    },
    [],
  );

  const toggle = useCallback(() => {
    if (recognitionRef.current) stop();
    else start();
  }, [start, stop]);

  return { listening, failed, toggle };
}
