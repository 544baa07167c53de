import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, vi } from 'vitest';
import { SCREEN_LOADERS, type ScreenLoader } from '@/app/screen-loaders';
import { BUILT_SCREENS } from '@/lib/screens';
import { createFetchMock, renderApp, signInAs, type FetchMock } from '@/test/render';

/** What the functional editor screens' tests share (URL input, script input, UI tests). */

const loaders = SCREEN_LOADERS as Record<string, ScreenLoader>;

/**
 * Call inside a describe: for each test the result screen is a stand-in that shows where Start leads
 * (the result screen's own tests are its own), and the real one is put back after.
 */
export function standInResultScreen(): void {
  const resultLoader = loaders.functionalResult;
  const wasBuilt = BUILT_SCREENS.has('functionalResult');
  beforeEach(() => {
    BUILT_SCREENS.add('functionalResult');
    loaders.functionalResult = () =>
      Promise.resolve({ default: () => <div data-testid="result-stand-in">result</div> });
  });
  afterEach(() => {
    if (resultLoader) loaders.functionalResult = resultLoader;
    else delete loaders.functionalResult;
    if (!wasBuilt) BUILT_SCREENS.delete('functionalResult');
  });
}

/** The requests the mock saw for `METHOD /api/path`, whatever their query. */
export function callsTo(fetchMock: FetchMock, method: string, path: string) {
  return fetchMock.mock.calls.filter(
    ([input, init]) =>
      (init?.method ?? 'GET').toUpperCase() === method &&
      (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).split('?')[0] ===
        path,
  );
}

/**
 * Call inside a describe: each test starts signed in, with the result screen stood in (see
 * standInResultScreen), and ends with the real fetch, no spies and an empty localStorage again.
 */
export function setUpEditorScreenTests(): void {
  standInResultScreen();
  beforeEach(() => {
    signInAs();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    window.localStorage.clear();
  });
}

/** A fetch mock's table: `METHOD /api/path` → its answer. */
export type FetchHandlers = Parameters<typeof createFetchMock>[0];

/** Puts a fetch mock answering `handlers` in place of fetch (the table stays the test's to add to). */
export function answerFetchWith(handlers: FetchHandlers): FetchMock {
  const fetchMock = createFetchMock(handlers);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The whole app at `path`, once the editor screen marked `pageTestId` is there (its chunk loads lazily). */
export async function openEditorScreen(path: string, pageTestId: string) {
  const view = renderApp(path);
  await screen.findByTestId(pageTestId, undefined, { timeout: 10_000 });
  return view;
}

/** Types `text` into a field as a user pasting it: a click to focus, then the paste. */
export async function fill(user: ReturnType<typeof userEvent.setup>, element: HTMLElement, text: string) {
  await user.click(element);
  await user.paste(text);
}
