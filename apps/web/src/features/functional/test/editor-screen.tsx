import { afterEach, beforeEach } from 'vitest';
import { SCREEN_LOADERS, type ScreenLoader } from '@/app/screen-loaders';
import { BUILT_SCREENS } from '@/lib/screens';
import type { FetchMock } from '@/test/render';

/** What both functional editor screens' tests share. */

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
