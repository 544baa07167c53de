import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { screenPath, type ScreenId } from '@/lib/screens';

/** Router state that keeps the editor when only ?planId= changes (after a save). */
interface EditorLocationState {
  editorKey?: string;
}

/**
 * The key a performance screen mounts its editor under: each visit gets a fresh editor, but replacing
 * the address with ?planId= after a save (see `useEditorAddress`) keeps the same one, with its unsaved
 * script edits.
 */
export function useEditorKey(): string {
  const location = useLocation();
  const state = location.state as EditorLocationState | null;
  return state?.editorKey ?? location.key;
}

/** The ?planId= of the address, and a way to write a saved plan's id there without a new editor. */
export function useEditorAddress(screen: ScreenId, editorKey: string) {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const rememberPlanId = useCallback(
    (id: string) => {
      const state: EditorLocationState = { editorKey };
      void navigate(
        { pathname: screenPath(screen), search: `?planId=${encodeURIComponent(id)}` },
        { replace: true, state },
      );
    },
    [navigate, editorKey, screen],
  );
  return { planIdParam: searchParams.get('planId'), rememberPlanId };
}
