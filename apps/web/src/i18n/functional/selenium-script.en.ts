/** English strings of the script screen's Selenium variant; spread into `en.ts`. Keys start with `functional.selenium.`. */
export const functionalSeleniumScriptEn = {
  // docs/reference/02-running.md §2 "Functional Script Input screen": the framework choice and the Selenium variant.
  'functional.selenium.framework': 'Script type',
  'functional.selenium.framework.taurus': 'Taurus (API)',
  'functional.selenium.framework.selenium': 'Selenium (UI)',
  'functional.selenium.sourceText':
    'Each request opens its URL in Chromium and runs its actions in order; an action that cannot run is refused with its line before anything runs.',
  'functional.selenium.fileHint': 'Load a Selenium-style Taurus script (.yml, .yaml)',
  'functional.selenium.fileLoaded': 'Script loaded from {name}',
  'functional.selenium.fileUnreadable': 'Could not read {name}: {message}',
  'functional.selenium.readSummary':
    '{pages} pages with {steps} steps will run in a browser · warnings: {warnings}',
  'functional.selenium.unknownTitle': 'Actions that cannot run ({count})',
  'functional.selenium.pagesTitle': 'Browser Steps ({count}) - Execution Order',
  'functional.selenium.pagesText':
    'Run once per iteration in one browser, in this order; a failed action fails its page with a screenshot.',
  'functional.selenium.samePage': 'Acts on the page the previous step left',
  'functional.selenium.stepCount': 'Actions: {count}',
  'functional.selenium.noActions': 'No actions: the page is opened and its load measured.',
  'functional.selenium.startFailed': 'Failed to start UI functional test: {message}',
  // The Selenium help box: click, input, select, wait.
  'functional.selenium.helpTitle': 'Writing browser steps in a Selenium script',
  'functional.selenium.helpClick':
    'click: clickByID(submit), clickByCSS(.buy), clickByXPath(//button), clickByLinkText(Sign in); also doubleClickBy… and submitBy….',
  'functional.selenium.helpInput':
    'input: typeByID(email): ada@example.com clears a field and fills it; keysByName(q): KEY_ENTER presses keys.',
  'functional.selenium.helpSelect':
    'select: selectByName(country): France chooses an option by its visible text.',
  'functional.selenium.helpWait':
    'wait: waitForByCSS(.done, Visible): 10s waits until an element is present, visible or clickable (or not); pauseFor(2s) waits a fixed time.',
  'functional.selenium.helpCheck':
    'Checks: assertTitle(Home), assertTextByCSS(h1): Welcome and assertValueByID(email): … fail the page with what was found; screenshot(name.png) keeps a picture.',
} as const;
