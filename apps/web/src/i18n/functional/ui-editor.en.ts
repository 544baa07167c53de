/** English strings of the UI Functional Test screen; spread into `en.ts`. Keys start with `functional.ui.` (and `functional.error.` for the model's UI messages). */
export const functionalUiEditorEn = {
  // The screen (docs/reference/02-running.md §2 "UI tests").
  'functional.ui.title': 'UI Functional Test',
  'functional.ui.subtitle':
    'List the pages of a web app and what each must show. They open in order in a real browser; every step is timed and photographed.',
  'functional.ui.loading': 'Loading UI test configuration...',
  'functional.ui.loadFailed': 'Failed to load UI test configuration: {message}',
  'functional.ui.configText': 'How many times the pages are opened, and for how long at most.',
  'functional.ui.testNamePlaceholder': 'e.g. Shop checkout pages',

  // The list of UI tests (pages).
  'functional.ui.testsTitle': 'UI Tests',
  'functional.ui.testsText':
    'Opened in this order in one browser tab. Drag a card by its handle, or use the arrows, to reorder.',
  'functional.ui.addTest': 'Add UI Test',
  'functional.ui.noTests': 'No UI tests configured',
  'functional.ui.noTestsText': 'Add a UI test: a page to open, and what it must show.',

  // A UI test card.
  'functional.ui.testLabel': 'UI Test {number}',
  'functional.ui.unnamedTest': 'Unnamed UI test',
  'functional.ui.name': 'Name',
  'functional.ui.namePlaceholder': 'e.g. Cart page',
  'functional.ui.url': 'URL',
  'functional.ui.urlPlaceholder': 'https://shop.example.com/cart',
  'functional.ui.method': 'Method',
  'functional.ui.dragHandle': 'Drag UI test {number} to reorder',
  'functional.ui.moveUp': 'Move UI test up',
  'functional.ui.moveDown': 'Move UI test down',
  'functional.ui.remove': 'Remove UI test',
  'functional.ui.confirmRemove': 'Remove UI Test {number} ({name}) and its validations?',

  // Validations of a page.
  'functional.ui.rulesTitle': 'Validations',
  'functional.ui.rulesText': 'Each enabled check is made once the page has loaded; all must pass.',
  'functional.ui.noRules': 'No validations: the page passes when it answers with a 2xx or 3xx status.',
  'functional.ui.rt.contains_text': 'Contains text',
  'functional.ui.rt.element_exists': 'Element exists',
  'functional.ui.rt.page_title': 'Page title',
  'functional.ui.rh.contains_text': 'Text the page must show, e.g. Welcome back',
  'functional.ui.rh.element_exists':
    'A CSS selector or an XPath the page must hold, e.g. #checkout, .cart button or //h1[text()="Cart"]',
  'functional.ui.rh.page_title': 'The exact title of the page, e.g. Cart – Shop',
  'functional.ui.rp.contains_text': 'Text, e.g. Welcome back',
  'functional.ui.rp.element_exists': 'CSS or XPath selector, e.g. #checkout',
  'functional.ui.rp.page_title': 'Exact title, e.g. Cart – Shop',

  // Buttons and their answers (docs/reference/02-running.md §8).
  'functional.ui.start': 'Start UI Test',
  'functional.ui.needsTest': 'Add a UI test first',
  'functional.ui.startFailed': 'Failed to start UI functional test: {message}',
  'functional.ui.problemAt': 'UI Test #{number}: {message}',

  // The model's UI messages (packages/plan/src/functional), translated where the form shows them.
  'functional.error.uiTestsRequired': 'At least one UI test must be configured',
  'functional.error.uiTestNameRequired': 'UI Test #{number} name is required',
  'functional.error.uiTestUrlRequired': 'UI Test #{number} URL is required',
} as const;
