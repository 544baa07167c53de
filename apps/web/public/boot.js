/* global window, document */
// Runs before the app bundle so that the first paint already has the right theme and <html lang>.
// Keys and values match src/lib/theme.tsx and src/i18n/index.tsx.
(function () {
  try {
    var root = document.documentElement;
    var theme = window.localStorage.getItem('theme');
    var prefersDark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
    var dark = theme === 'dark' || (theme !== 'light' && prefersDark);
    root.classList.toggle('dark', dark);
    var language = window.localStorage.getItem('language');
    if (language !== 'en' && language !== 'ko') {
      language = /^ko\b/i.test(window.navigator.language || '') ? 'ko' : 'en';
    }
    root.lang = language;
  } catch {
    // Storage can be unavailable (privacy modes); the app applies its defaults once it starts.
  }
})();
