import { migratePlan } from '@aqa/plan';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerConfirm, confirmQuestion, noticeTexts } from '@/test/notices';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

/*
 * Work is never lost silently on the performance editors (docs/reference/01-authoring.md §4 "Unsaved
 * changes", §7 "Plan versions"): leaving with unsaved edits asks first, and an update refused because the
 * plan changed since it was opened offers reload theirs / overwrite with mine / keep editing.
 */

type User = ReturnType<typeof userEvent.setup>;

function savedPlan(overrides: Record<string, unknown> = {}) {
  return {
    ...migratePlan({
      name: 'Saved checkout',
      tool: 'k6',
      concurrent_users: 25,
      duration: 3,
      urls: [{ method: 'GET', url: 'https://api.test/orders' }],
    }),
    id: 'plan-9',
    _id: 'plan-9',
    script: '',
    script_edited: false,
    version: 4,
    ...overrides,
  };
}

const CHANGED = { detail: 'This plan changed since you opened it', code: 'PLAN_CHANGED' };

async function replaceText(user: User, element: HTMLElement, text: string) {
  await user.clear(element);
  await user.click(element);
  await user.paste(text);
}

describe('unsaved work on the performance editor', { timeout: 20_000 }, () => {
  let fetchMock: FetchMock;
  let stored: ReturnType<typeof savedPlan>;
  let updates: Record<string, unknown>[];

  beforeEach(() => {
    stored = savedPlan();
    updates = [];
    fetchMock = createFetchMock({
      'GET /api/me': () => json({ user: TEST_USER }),
      'GET /api/get-test-plan/plan-9': () => json(stored),
      'POST /api/save-test-plan': ({ body }) => {
        const sent = bodyOf({ body }) as Record<string, unknown>;
        return json({ id: 'plan-1', plan: { ...savedPlan(sent), id: 'plan-1', version: 1 } }, 201);
      },
      'PUT /api/update-test-plan/plan-9': ({ body }) => {
        const sent = bodyOf({ body }) as Record<string, unknown>;
        updates.push(sent);
        // The server's rule: an update from another version than the stored one is refused.
        if (sent.version !== undefined && sent.version !== stored.version)
          return json(CHANGED, 409, 'Conflict');
        stored = savedPlan({ ...sent, version: stored.version + 1 });
        return json({ id: 'plan-9', message: 'Test plan updated successfully', plan: stored });
      },
    });
    vi.stubGlobal('fetch', fetchMock);
    signInAs();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  async function openSaved() {
    const view = renderApp('/create-test/url-input?planId=plan-9');
    await screen.findByTestId('url-input-page', undefined, { timeout: 10_000 });
    await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved checkout'));
    return view;
  }

  describe('leaving the page', () => {
    it('asks before an in-app navigation drops unsaved edits; Cancel stays, Leave goes', async () => {
      const user = userEvent.setup({ delay: null });
      const { router } = await openSaved();
      await replaceText(user, screen.getByTestId('plan-name'), 'Edited here');

      await act(() => router.navigate('/dashboard'));
      await waitFor(() =>
        expect(confirmQuestion()).toBe('You have unsaved changes. Leave this page and lose them?'),
      );
      await answerConfirm(user, false);
      expect(router.state.location.pathname).toBe('/create-test/url-input');
      expect(screen.getByTestId('plan-name')).toHaveValue('Edited here');

      await act(() => router.navigate('/dashboard'));
      await answerConfirm(user, true);
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    });

    it('lets a saved or untouched plan go without asking', async () => {
      const user = userEvent.setup({ delay: null });
      const { router } = await openSaved();
      await act(() => router.navigate('/dashboard'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
      expect(confirmQuestion()).toBeNull();

      await act(() => router.navigate('/create-test/url-input?planId=plan-9'));
      await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved checkout'));
      await replaceText(user, screen.getByTestId('plan-name'), 'Saved again');
      await user.click(screen.getByTestId('save-plan'));
      await waitFor(() => expect(noticeTexts()).toContain('Test plan updated successfully!'));
      await act(() => router.navigate('/dashboard'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
      expect(confirmQuestion()).toBeNull();
    });

    it('opens the plan as last saved on the next visit, read through the cache afresh', async () => {
      const user = userEvent.setup({ delay: null });
      const { router } = await openSaved();
      const reads = () =>
        fetchMock.mock.calls.filter(
          ([url]) => typeof url === 'string' && url.startsWith('/api/get-test-plan/plan-9'),
        ).length;
      expect(reads()).toBe(1);
      await replaceText(user, screen.getByTestId('plan-name'), 'Saved and reopened');
      await user.click(screen.getByTestId('save-plan'));
      await waitFor(() => expect(noticeTexts()).toContain('Test plan updated successfully!'));
      // The save marks the cached plan stale; the open editor keeps its form and asks nothing more.
      expect(reads()).toBe(1);

      await act(() => router.navigate('/dashboard'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
      await act(() => router.navigate('/create-test/url-input?planId=plan-9'));
      await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved and reopened'));
      expect(reads()).toBe(2);
    });

    it('a new plan asks only once something was typed into it', async () => {
      const user = userEvent.setup({ delay: null });
      const { router } = renderApp('/create-test/url-input');
      await screen.findByTestId('url-input-page', undefined, { timeout: 10_000 });
      await act(() => router.navigate('/dashboard'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
      expect(confirmQuestion()).toBeNull();

      await act(() => router.navigate('/create-test/url-input'));
      await screen.findByTestId('url-input-page');
      await user.click(screen.getByTestId('api-0-url'));
      await user.paste('https://api.test/new');
      await act(() => router.navigate('/dashboard'));
      await waitFor(() => expect(confirmQuestion()).not.toBeNull());
    });

    it("asks also when the only changes are James's, applied to the plan on screen", async () => {
      const user = userEvent.setup({ delay: null });
      const { router } = await openSaved();
      await user.click(screen.getByTestId('james-open'));
      await user.click(await screen.findByTestId('james-offer-adjust'));
      await user.click(screen.getByTestId('james-adjust-input'));
      await user.paste('double the users');
      await user.click(screen.getByTestId('james-adjust-preview'));
      await user.click(screen.getByTestId('james-adjust-apply'));
      await screen.findByTestId('james-adjust-applied');
      await user.keyboard('{Escape}');

      await act(() => router.navigate('/dashboard'));
      await waitFor(() =>
        expect(confirmQuestion()).toBe('You have unsaved changes. Leave this page and lose them?'),
      );
      await answerConfirm(user, false);
      expect(router.state.location.pathname).toBe('/create-test/url-input');
    });

    it('asks the browser to confirm closing or reloading the tab while edits are unsaved', async () => {
      const user = userEvent.setup({ delay: null });
      await openSaved();
      const unload = () => {
        const event = new Event('beforeunload', { cancelable: true });
        window.dispatchEvent(event);
        return event.defaultPrevented;
      };
      expect(unload()).toBe(false);
      await replaceText(user, screen.getByTestId('plan-name'), 'Edited here');
      expect(unload()).toBe(true);
    });
  });

  describe('a plan that changed since it was opened', () => {
    async function editAndSaveAgainstNewerPlan(user: User) {
      await openSaved();
      // Another tab saves the plan meanwhile: version 5, another name.
      stored = savedPlan({ name: 'Saved in another tab', version: 5 });
      await replaceText(user, screen.getByTestId('plan-name'), 'Mine');
      await user.click(screen.getByTestId('save-plan'));
      return within(await screen.findByTestId('conflict-dialog'));
    }

    it('sends the version it was opened at, and offers the three choices on a 409', async () => {
      const user = userEvent.setup({ delay: null });
      const dialog = await editAndSaveAgainstNewerPlan(user);
      expect(updates[0]?.version).toBe(4);
      expect(dialog.getByTestId('conflict-dialog-title')).toHaveTextContent(
        'This plan changed since you opened it',
      );
      expect(dialog.getAllByRole('button').map((button) => button.textContent)).toEqual([
        'Keep editing',
        'Reload theirs',
        'Overwrite with mine',
      ]);
      // Nothing destructive is one Enter away: the focus starts on Keep editing.
      expect(dialog.getByTestId('conflict-keep')).toHaveFocus();
    });

    it('Keep editing saves nothing and keeps the edits', async () => {
      const user = userEvent.setup({ delay: null });
      const dialog = await editAndSaveAgainstNewerPlan(user);
      await user.click(dialog.getByTestId('conflict-keep'));
      await waitFor(() => expect(screen.queryByTestId('conflict-dialog')).toBeNull());
      expect(updates).toHaveLength(1);
      expect(stored.name).toBe('Saved in another tab');
      expect(screen.getByTestId('plan-name')).toHaveValue('Mine');
      expect(noticeTexts().join(' ')).not.toMatch(/Failed/);
    });

    it('Reload theirs puts the saved plan on screen', async () => {
      const user = userEvent.setup({ delay: null });
      const dialog = await editAndSaveAgainstNewerPlan(user);
      await user.click(dialog.getByTestId('conflict-reload'));
      await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved in another tab'));
      expect(updates).toHaveLength(1);
      expect(noticeTexts()).toContain('The saved plan is loaded; your changes were dropped.');
      // Theirs is what is saved now: the next save goes from version 5.
      await replaceText(user, screen.getByTestId('plan-name'), 'After reload');
      await user.click(screen.getByTestId('save-plan'));
      await waitFor(() => expect(stored.name).toBe('After reload'));
      expect(updates[1]?.version).toBe(5);
    });

    it('Overwrite with mine saves over theirs with the version just read', async () => {
      const user = userEvent.setup({ delay: null });
      const dialog = await editAndSaveAgainstNewerPlan(user);
      await user.click(dialog.getByTestId('conflict-overwrite'));
      await waitFor(() => expect(stored.name).toBe('Mine'));
      expect(updates.map((sent) => sent.version)).toEqual([4, 5]);
      expect(stored.version).toBe(6);
      await waitFor(() => expect(noticeTexts()).toContain('Test plan updated successfully!'));
    });

    it('the choice is in Korean on a Korean screen', async () => {
      const user = userEvent.setup({ delay: null });
      renderApp('/create-test/url-input?planId=plan-9', { language: 'ko' });
      await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved checkout'), {
        timeout: 10_000,
      });
      stored = savedPlan({ version: 5 });
      await replaceText(user, screen.getByTestId('plan-name'), 'Mine');
      await user.click(screen.getByTestId('save-plan'));
      const dialog = within(await screen.findByTestId('conflict-dialog'));
      expect(dialog.getByTestId('conflict-dialog-title')).toHaveTextContent(
        '이 플랜을 연 뒤에 다른 곳에서 변경되었습니다',
      );
      expect(dialog.getByTestId('conflict-overwrite')).toHaveTextContent('내 변경으로 덮어쓰기');
      expect(bodyOf(fetchMock.mock.calls.at(-1)?.[1])).toMatchObject({ version: 4 });
    });
  });
});
