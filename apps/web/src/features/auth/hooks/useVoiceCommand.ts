import { useCallback, useEffect, useRef, useState } from 'react';

/** The part of the Web Speech API we use (TypeScript's DOM library does not declare the recogniser). */
export interface SpeechRecognitionAlternativeLike {
  readonly transcript: string;
}
export interface SpeechRecognitionResultEventLike {
  readonly results: ArrayLike<ArrayLike<SpeechRecognitionAlternativeLike>>;
}
export interface SpeechRecognitionErrorEventLike {
  readonly error: string;
}
export interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  maxAlternatives: number;
  onresult: ((event: SpeechRecognitionResultEventLike) => void) | null;
  onerror: ((event: SpeechRecognitionErrorEventLike) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
export type SpeechRecognitionConstructor = new () => SpeechRecognitionLike;

export function getSpeechRecognition(): SpeechRecognitionConstructor | undefined {
  const w = window as Window & {
    SpeechRecognition?: SpeechRecognitionConstructor;
    webkitSpeechRecognition?: SpeechRecognitionConstructor;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}

/**
 * docs/reference/01-authoring.md §9: a transcript containing "login" or "sign in" (case-insensitive) asks for the demo sign-in.
 * The hint also suggests "Sign me in", which contains neither, so it (and "log in") count as well.
 */
export function isLoginIntent(transcript: string): boolean {
  const text = transcript.toLowerCase();
  return ['login', 'sign in', 'sign me in', 'log in'].some((phrase) => text.includes(phrase));
}

export type VoiceState = 'idle' | 'listening';
/** What the read-only box shows once listening has ended. */
export type VoiceOutcome = { kind: 'transcript'; text: string } | { kind: 'error' } | null;

export interface VoiceCommand {
  state: VoiceState;
  outcome: VoiceOutcome;
  /** Listen when idle, Stop when listening. */
  toggle: () => void;
}

/**
 * Voice recognition states of docs/reference/01-authoring.md §4: idle → listening → (result | error) → idle. Recognition runs in
 * en-US, one utterance, final results only. Stop returns to idle and clears the text. Events of a
 * recogniser that was stopped are ignored, so a late "aborted" error never shows as a failure.
 */
export function useVoiceCommand(options: {
  onTranscript: (transcript: string) => void;
  onUnsupported: () => void;
}): VoiceCommand {
  const [state, setState] = useState<VoiceState>('idle');
  const [outcome, setOutcome] = useState<VoiceOutcome>(null);
  const recognitionRef = useRef<SpeechRecognitionLike | null>(null);
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });

  const stop = useCallback(() => {
    const recognition = recognitionRef.current;
    recognitionRef.current = null;
    recognition?.abort();
    setState('idle');
    setOutcome(null);
  }, []);

  const start = useCallback(() => {
    const Recognition = getSpeechRecognition();
    if (!Recognition) {
      optionsRef.current.onUnsupported();
      return;
    }
    const recognition = new Recognition();
    recognition.lang = 'en-US';
    recognition.continuous = false;
    recognition.interimResults = false;
    recognition.maxAlternatives = 1;
    const isCurrent = () => recognitionRef.current === recognition;
    recognition.onresult = (event) => {
      if (!isCurrent()) return;
      recognitionRef.current = null;
      const transcript = Array.from(event.results)
        .map((result) => result[0]?.transcript ?? '')
        .join(' ')
        .trim();
      setState('idle');
      setOutcome({ kind: 'transcript', text: transcript });
      optionsRef.current.onTranscript(transcript);
    };
    recognition.onerror = () => {
      if (!isCurrent()) return;
      recognitionRef.current = null;
      setState('idle');
      setOutcome({ kind: 'error' });
    };
    recognition.onend = () => {
      // Ended without a result or an error (silence): back to idle with an empty box.
      if (!isCurrent()) return;
      recognitionRef.current = null;
      setState('idle');
      setOutcome(null);
    };
    recognitionRef.current = recognition;
    setOutcome(null);
    setState('listening');
    try {
      recognition.start();
    } catch {
      recognitionRef.current = null;
      setState('idle');
      setOutcome({ kind: 'error' });
    }
  }, []);

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

  return { state, outcome, toggle };
}
