import { useCallback, useEffect, useRef } from 'react';
import { useBlocker, type Location } from 'react-router';
import { useConfirm } from '@/components/confirm-dialog';
import { useT } from '@/i18n';

/** Router state an editor keeps while only its address changes (features/plans/hooks/useEditorAddress.ts). */
interface EditorLocationState {
  editorKey?: string;
}

/** The editor visit a location belongs to: the key it was opened under, kept across ?planId= changes. */
function visitOf(location: Location): string {
  return (location.state as EditorLocationState | null)?.editorKey ?? location.key;
}

/**
 * Whether going from `current` to `next` leaves the editor on screen: another screen, or the same screen
 * opened afresh (a sidebar link, another plan). Writing ?planId= after a save keeps the visit, so it
 * does not leave.
 */
export function leavesEditor(current: Location, next: Location): boolean {
  return current.pathname !== next.pathname || visitOf(current) !== visitOf(next);
}

export interface LeaveWarning {
  /**
   * Lets the editor's own next navigation through (Run opens the result once the plan is saved; Delete
   * goes to the dashboard): the form may still read as changed for the render that navigates.
   */
  allowNextNavigation: () => void;
}

/**
 * The leave-page warning of an editor with unsaved changes (docs/reference/01-authoring.md §4 "Unsaved
 * changes"): a navigation inside the app is held by the router's blocker and asks in the in-app dialog
 * whether to leave; closing or reloading the tab gets the browser's own beforeunload question.
 */
export function useLeaveWarning(dirty: boolean): LeaveWarning {
  const t = useT();
  const confirm = useConfirm();
  const allowed = useRef(false);

  const shouldBlock = useCallback(
    ({ currentLocation, nextLocation }: { currentLocation: Location; nextLocation: Location }) => {
      if (allowed.current) {
        allowed.current = false;
        return false;
      }
      return dirty && leavesEditor(currentLocation, nextLocation);
    },
    [dirty],
  );
  const blocker = useBlocker(shouldBlock);

  // Asked once per held navigation: the blocker of the render that held it answers it.
  const held = blocker.state === 'blocked' ? blocker : null;
  useEffect(() => {
    if (!held) return;
    let settled = false;
    void confirm({
      message: t('leave.question'),
      confirmLabel: t('leave.leave'),
      destructive: true,
    }).then((leave) => {
      if (settled) return;
      settled = true;
      if (leave) held.proceed();
      else held.reset();
    });
    return () => {
      settled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `held` is a new object each render; its state is what counts
  }, [held !== null]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      // The browser asks in its own words; both are needed for every browser to ask at all.
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return {
    allowNextNavigation: useCallback(() => {
      allowed.current = true;
    }, []),
  };
}
