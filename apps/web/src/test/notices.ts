import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/** The texts of the in-app notices on screen now, oldest first (see components/notices.tsx). */
export function noticeTexts(): string[] {
  return screen.queryAllByTestId('notice-text').map((element) => element.textContent ?? '');
}

/** The open confirmation's question, or null when none is open (see components/confirm-dialog.tsx). */
export function confirmQuestion(): string | null {
  return screen.queryByTestId('confirm-message')?.textContent ?? null;
}

/** Waits for the confirmation, answers it with its confirm (true) or Cancel (false) button, returns the question. */
export async function answerConfirm(user: UserEvent, accept: boolean): Promise<string> {
  const dialog = await screen.findByRole('alertdialog');
  const question = within(dialog).getByTestId('confirm-message').textContent ?? '';
  await user.click(within(dialog).getByTestId(accept ? 'confirm-accept' : 'confirm-cancel'));
  await waitFor(() => {
    if (dialog.isConnected) throw new Error('The confirmation is still open');
  });
  return question;
}

/** Dismisses every notice on screen, so that a test can look at the next ones alone. */
export function dismissNotices(): void {
  for (const button of screen.queryAllByTestId('notice-dismiss')) fireEvent.click(button);
}
