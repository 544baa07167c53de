import { useCallback, useEffect, useRef, useState } from 'react';
import { getSpeechRecognition, type SpeechRecognitionLike } from '@/features/auth/hooks/useVoiceCommand';

export interface Dictation {
  /** False where the browser has no Web Speech API: the microphone is then not offered. */
  supported: boolean;
  listening: boolean;
  failed: boolean;
  toggle: () => void;
}

/**
 * One spoken utterance into text through the Web Speech API, in the user's language (the text-command
 * parser understands English and Korean). Events of a recogniser that was stopped are ignored.
 */
export function useDictation(lang: string, onText: (text: string) => void): Dictation {
  const [listening, setListening] = useState(false);
  const [failed, setFailed] = useState(false);
  const recognitionRef = useRef<SpeechRecognitionLike | null>(null);
  const onTextRef = useRef(onText);
  useEffect(() => {
    onTextRef.current = onText;
  });
  const supported = getSpeechRecognition() !== undefined;

  const stop = useCallback(() => {
    const recognition = recognitionRef.current;
    recognitionRef.current = null;
    recognition?.abort();
    setListening(false);
  }, []);

  const start = useCallback(() => {
    const Recognition = getSpeechRecognition();
    if (!Recognition) return;
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

  return { supported, listening, failed, toggle };
}
