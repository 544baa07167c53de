import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { answerConfirm, confirmQuestion, noticeTexts } from '@/test/notices';
import { bodyOf, json, TEST_USER } from '@/test/render';
import { answerFetchWith, openEditorScreen, setUpEditorScreenTests } from '../../test/editor-screen';

/*
 * The functional editors share their plan lifecycle (useFunctionalPlan): leaving with unsaved edits asks
 * first, and an Update refused because the plan changed since it was opened offers the choice
 * (docs/reference/01-authoring.md §4 "Unsaved changes", §7 "Plan versions").
 */

function savedPlan(overrides: Record<string, unknown> = {}) {
  return {
    id: 'fp-9',
    test_name: 'Saved chain',
    test_type: 'functional',
    source: 'url_input',
    apis: [{ name: 'Profile', url: 'http://127.0.0.1:9/me', method: 'GET' }],
    version: 2,
    ...overrides,
  };
}

describe('unsaved work on the functional editors', { timeout: 20_000 }, () => {
  setUpEditorScreenTests();
  let stored: ReturnType<typeof savedPlan>;
  let updates: Record<string, unknown>[];

  beforeEach(() => {
    stored = savedPlan();
    updates = [];
    answerFetchWith({
      'GET /api/me': () => json({ user: TEST_USER }),
      'GET /api/functional/get-test-config/fp-9': () => json(stored),
      'PUT /api/functional/update-config/fp-9': ({ body }) => {
        const sent = bodyOf({ body }) as Record<string, unknown>;
        updates.push(sent);
        if (sent.version !== undefined && sent.version !== stored.version) {
          return json({ detail: 'This plan changed since you opened it', code: 'PLAN_CHANGED' }, 409);
        }
        stored = savedPlan({ ...sent, version: stored.version + 1 });
        return json({ id: 'fp-9', test_id: 'fp-9', version: stored.version });
      },
    });
  });

  async function openSaved(path = '/functional-test/url-input?planId=fp-9') {
    const view = await openEditorScreen(path, 'functional-url-input-page');
    await waitFor(() => expect(screen.getByTestId('test-name')).toHaveValue('Saved chain'));
    return view;
  }

  async function rename(user: ReturnType<typeof userEvent.setup>, name: string) {
    await user.clear(screen.getByTestId('test-name'));
    await user.click(screen.getByTestId('test-name'));
    await user.paste(name);
  }

  it('asks before leaving with unsaved edits, and not after they are saved', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = await openSaved();
    await rename(user, 'Edited');
    await act(() => router.navigate('/dashboard'));
    await waitFor(() =>
      expect(confirmQuestion()).toBe('You have unsaved changes. Leave this page and lose them?'),
    );
    await answerConfirm(user, false);
    expect(router.state.location.pathname).toBe('/functional-test/url-input');

    await user.click(screen.getByTestId('functional-save'));
    await waitFor(() => expect(noticeTexts()).toContain('Updated! Test ID: fp-9'));
    expect(stored.test_name).toBe('Edited');
    await act(() => router.navigate('/dashboard'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(confirmQuestion()).toBeNull();
  });

  it('a new plan with nothing typed leaves without asking', async () => {
    const { router } = await openEditorScreen('/functional-test/url-input', 'functional-url-input-page');
    await act(() => router.navigate('/dashboard'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(confirmQuestion()).toBeNull();
  });

  it('Update sends the version; a 409 offers the choice, and Overwrite saves with the version just read', async () => {
    const user = userEvent.setup({ delay: null });
    await openSaved();
    stored = savedPlan({ test_name: 'Saved in another tab', version: 3 });
    await rename(user, 'Mine');
    await user.click(screen.getByTestId('functional-save'));
    const dialog = within(await screen.findByTestId('conflict-dialog'));
    expect(dialog.getByTestId('conflict-dialog-title')).toHaveTextContent(
      'This plan changed since you opened it',
    );
    await user.click(dialog.getByTestId('conflict-overwrite'));
    await waitFor(() => expect(stored.test_name).toBe('Mine'));
    expect(updates.map((sent) => sent.version)).toEqual([2, 3]);
  });

  it('Reload theirs puts the saved plan in the form; Keep editing saves nothing', async () => {
    const user = userEvent.setup({ delay: null });
    await openSaved();
    stored = savedPlan({ test_name: 'Saved in another tab', version: 3 });
    await rename(user, 'Mine');
    await user.click(screen.getByTestId('functional-save'));
    await user.click(within(await screen.findByTestId('conflict-dialog')).getByTestId('conflict-keep'));
    await waitFor(() => expect(screen.queryByTestId('conflict-dialog')).toBeNull());
    expect(screen.getByTestId('test-name')).toHaveValue('Mine');
    expect(stored.test_name).toBe('Saved in another tab');

    // The first save has ended (its button is back) before the second one.
    await waitFor(() => expect(screen.getByTestId('functional-save')).toBeEnabled());
    await user.click(screen.getByTestId('functional-save'));
    await user.click(within(await screen.findByTestId('conflict-dialog')).getByTestId('conflict-reload'));
    await waitFor(() => expect(screen.getByTestId('test-name')).toHaveValue('Saved in another tab'));
    await waitFor(() =>
      expect(noticeTexts()).toContain('The saved plan is loaded; your changes were dropped.'),
    );
    expect(updates).toHaveLength(2);
  });
});
