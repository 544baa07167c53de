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
