import { migratePlan } from '@aqa/plan';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { noticeTexts } from '@/test/notices';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

type User = ReturnType<typeof userEvent.setup>;

/** Replaces a field's value in one paste. */
async function replace(user: User, element: HTMLElement, text: string) {
  await user.clear(element);
  await user.click(element);
  await user.paste(text);
}

/** A plan with flows as GET /api/get-test-plan answers it. */
function savedPlan() {
  return {
    ...migratePlan({
      name: 'Shop',
      tool: 'k6',
      flows: [
        { name: 'browse', weight: 70 },
        { name: 'search', weight: 30 },
      ],
      urls: [
        { method: 'GET', url: 'https://api.test/home', flow: 'browse' },
        { method: 'GET', url: 'https://api.test/search', flow: 'search' },
      ],
    }),
    id: 'plan-7',
    _id: 'plan-7',
    script: '',
    script_edited: false,
  };
}

describe(
  'the flows of the URL-input screen (docs/adr/0027-load-profiles.md "Flows")',
  { timeout: 20_000 },
  () => {
    let fetchMock: FetchMock;

    beforeEach(() => {
      fetchMock = createFetchMock({
        'GET /api/me': () => json({ user: TEST_USER }),
        'POST /api/save-test-plan': () =>
          json(
            { id: 'plan-1', _id: 'plan-1', plan_id: 'plan-1', message: 'Test plan saved successfully' },
            201,
          ),
        'PUT /api/update-test-plan/plan-7': () =>
          json({ id: 'plan-7', message: 'Test plan updated successfully' }),
        'GET /api/get-test-plan/plan-7': () => json(savedPlan()),
      });
      vi.stubGlobal('fetch', fetchMock);
      signInAs();
    });
    afterEach(() => {
      vi.unstubAllGlobals();
      vi.restoreAllMocks();
    });

    const sent = (url: string) => {
      const call = fetchMock.mock.calls.find(([input]) => input === url);
      return call ? (bodyOf(call[1]) as Record<string, unknown>) : undefined;
    };

    async function openScreen(path = '/create-test/url-input') {
      renderApp(path);
      await screen.findByTestId('url-input-page', undefined, { timeout: 10_000 });
    }

    it('shows no Flows section and sends no flows until a call names one', async () => {
      const user = userEvent.setup({ delay: null });
      await openScreen();
      expect(screen.queryByTestId('plan-flows')).toBeNull();
      await replace(user, screen.getByTestId('plan-name'), 'Plain');
      await replace(user, screen.getByTestId('api-0-url'), 'https://api.test/items');
      await user.click(screen.getByTestId('save-plan'));
      await waitFor(() => expect(noticeTexts()).toContain('Test plan saved successfully!'));
      expect(sent('/api/save-test-plan')).not.toHaveProperty('flows');
      expect((sent('/api/save-test-plan')!.urls as object[])[0]).not.toHaveProperty('flow');
    });

    it('lists the flows the calls name, weighs them and saves them with each call’s flow', async () => {
      const user = userEvent.setup({ delay: null });
      await openScreen();
      await replace(user, screen.getByTestId('plan-name'), 'Shop');
      await replace(user, screen.getByTestId('api-0-url'), 'https://api.test/home');
      await replace(user, screen.getByTestId('api-0-flow'), 'browse');
      await user.click(screen.getByTestId('add-url'));
      await replace(user, screen.getByTestId('api-1-url'), 'https://api.test/search');
      await replace(user, screen.getByTestId('api-1-flow'), 'search');

      // A call names flows no row lists: saving says so by the call, and the section offers them.
      await user.click(screen.getByTestId('save-plan'));
      expect(
        (await screen.findAllByText(/urls\[1\]\.flow "search" names a flow, but the plan lists no flows/))
          .length,
      ).toBeGreaterThan(0);
      expect(sent('/api/save-test-plan')).toBeUndefined();
      expect(screen.getByTestId('flows-add-named')).toHaveTextContent('browse, search');
      await user.click(screen.getByTestId('flows-add-named'));
      expect(screen.getByTestId('flow-0-name')).toHaveValue('browse');
      expect(screen.getByTestId('flow-1-name')).toHaveValue('search');
      // A weight the plan does not take is told as it is typed, before any save.
      await replace(user, screen.getByTestId('flow-0-weight'), '0');
      expect(screen.getByTestId('flow-0-weight-error')).toHaveTextContent(
        'A flow’s weight is a whole number from 1 to 1000',
      );
      await replace(user, screen.getByTestId('flow-0-weight'), '70');
      expect(screen.queryByTestId('flow-0-weight-error')).toBeNull();
      await replace(user, screen.getByTestId('flow-1-weight'), '30');
      expect(screen.getByText('70.0 % of the iterations')).toBeInTheDocument();

      // Renaming a flow renames it in the calls that name it.
      await replace(user, screen.getByTestId('flow-1-name'), 'find');
      expect(screen.getByTestId('api-1-flow')).toHaveValue('find');

      await user.click(screen.getByTestId('save-plan'));
      await waitFor(() => expect(noticeTexts()).toContain('Test plan saved successfully!'));
      expect(sent('/api/save-test-plan')).toMatchObject({
        flows: [
          { name: 'browse', weight: 70 },
          { name: 'find', weight: 30 },
        ],
        urls: [{ flow: 'browse' }, { flow: 'find' }],
      });
    });

    it('loads a saved plan’s flows and sends them back unchanged', async () => {
      const user = userEvent.setup({ delay: null });
      await openScreen('/create-test/url-input?planId=plan-7');
      expect(await screen.findByTestId('flow-0-name')).toHaveValue('browse');
      expect(screen.getByTestId('flow-1-weight')).toHaveValue('30');
      expect(screen.getByTestId('api-1-flow')).toHaveValue('search');
      await user.click(screen.getByTestId('save-plan'));
      await waitFor(() => expect(sent('/api/update-test-plan/plan-7')).toBeDefined());
      expect(sent('/api/update-test-plan/plan-7')).toMatchObject({
        flows: savedPlan().flows,
        urls: [{ flow: 'browse' }, { flow: 'search' }],
      });
    });
  },
);
