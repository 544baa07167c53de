import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '@/app/providers';
import type { Language } from '@/i18n';
import { useConfirm } from './confirm-dialog';
import { SUCCESS_VISIBLE_MS, useNotice, useScreenNotices } from './notices';

function NoticeButtons() {
  const notice = useNotice();
  return (
    <>
      <button onClick={() => notice.success('Test plan saved successfully!')}>save</button>
      <button onClick={() => notice.error('Failed to delete test plan')}>fail</button>
    </>
  );
}

/** An editor's notices: its own errors, taken back when it tries again. */
function EditorButtons() {
  const notice = useScreenNotices();
  return (
    <>
      <button onClick={() => notice.error('API #1 URL is required')}>check</button>
      <button onClick={() => notice.clearErrors()}>retry</button>
    </>
  );
}

function ConfirmButton() {
  const confirm = useConfirm();
  const [answer, setAnswer] = useState('none');
  return (
    <>
      <button
        onClick={() =>
          void confirm({
            message: 'Are you sure you want to delete?',
            confirmLabel: 'Delete',
            destructive: true,
          }).then((confirmed) => setAnswer(String(confirmed)))
        }
      >
        remove
      </button>
      <output data-testid="answer">{answer}</output>
    </>
  );
}

function renderIn(element: React.ReactNode, language: Language = 'en') {
  return render(<AppProviders language={language}>{element}</AppProviders>);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('notices', () => {
  it("takes back a screen's own errors when it tries again, and leaves the others", async () => {
    const user = userEvent.setup();
    renderIn(
      <>
        <NoticeButtons />
        <EditorButtons />
      </>,
    );
    await user.click(screen.getByText('fail'));
    await user.click(screen.getByText('check'));
    expect(screen.getAllByRole('alert').map((n) => n.textContent)).toEqual([
      'Failed to delete test plan',
      'API #1 URL is required',
    ]);
    await user.click(screen.getByText('retry'));
    expect(screen.getAllByRole('alert').map((n) => n.textContent)).toEqual(['Failed to delete test plan']);
  });

  it('announces a success politely and an error at once, word for word', async () => {
    const user = userEvent.setup();
    renderIn(<NoticeButtons />);
    await user.click(screen.getByText('save'));
    await user.click(screen.getByText('fail'));
    expect(screen.getByRole('status')).toHaveTextContent('Test plan saved successfully!');
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to delete test plan');
    expect(screen.getByRole('region', { name: 'Notifications' })).toBeInTheDocument();
  });

  it('hides a success after a few seconds, but keeps an error until it is dismissed', async () => {
    vi.useFakeTimers();
    renderIn(<NoticeButtons />);
    fireEvent.click(screen.getByText('save'));
    fireEvent.click(screen.getByText('fail'));
    await act(() => vi.advanceTimersByTimeAsync(SUCCESS_VISIBLE_MS - 100));
    expect(screen.queryByRole('status')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to delete test plan');
  });

  it('is dismissed from the keyboard, and the same message twice shows once', async () => {
    const user = userEvent.setup();
    renderIn(<NoticeButtons />);
    await user.click(screen.getByText('fail'));
    await user.click(screen.getByText('fail'));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    const dismiss = screen.getByRole('button', { name: 'Dismiss' });
    dismiss.focus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('labels its controls in Korean', async () => {
    const user = userEvent.setup();
    renderIn(<NoticeButtons />, 'ko');
    await user.click(screen.getByText('fail'));
    expect(screen.getByRole('region', { name: '알림' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '닫기' })).toBeInTheDocument();
  });
});

describe('confirm dialog', () => {
  it('is an alertdialog named by the question, with focus on Cancel and the action on the confirm button', async () => {
    const user = userEvent.setup();
    renderIn(<ConfirmButton />);
    await user.click(screen.getByText('remove'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Are you sure you want to delete?' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  it('keeps the focus inside while open', async () => {
    const user = userEvent.setup();
    renderIn(<ConfirmButton />);
    await user.click(screen.getByText('remove'));
    const dialog = await screen.findByRole('alertdialog');
    for (let i = 0; i < 4; i += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });

  it('resolves true on the confirm button and false on Escape, and gives the focus back', async () => {
    const user = userEvent.setup();
    renderIn(<ConfirmButton />);
    const opener = screen.getByText('remove');
    await user.click(opener);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('answer')).toHaveTextContent('true'));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    await user.click(opener);
    await screen.findByRole('alertdialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByTestId('answer')).toHaveTextContent('false'));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => expect(opener).toHaveFocus());
  }, 15_000);

  it('answers Cancel in Korean with false', async () => {
    const user = userEvent.setup();
    renderIn(<ConfirmButton />, 'ko');
    await user.click(screen.getByText('remove'));
    await user.click(await screen.findByRole('button', { name: '취소' }));
    await waitFor(() => expect(screen.getByTestId('answer')).toHaveTextContent('false'));
  });
});
