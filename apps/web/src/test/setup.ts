import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Screens are lazy-loaded chunks: on a busy CI machine the first import of a screen can take longer
// than Testing Library's default 1 s for findBy*/waitFor, which made "opens its result" flaky.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.documentElement.className = '';
});

// The code editors (CodeMirror) measure text through Range rectangles, which jsdom, having no layout,
// does not give: empty ones stand in, as for every other element in jsdom.
if (typeof Range !== 'undefined' && !('getClientRects' in Range.prototype)) {
  const empty = { x: 0, y: 0, width: 0, height: 0, top: 0, right: 0, bottom: 0, left: 0 };
  Object.assign(Range.prototype, {
    getClientRects: () => Object.assign([], { item: () => null }),
    getBoundingClientRect: () => ({ ...empty, toJSON: () => empty }),
  });
}
