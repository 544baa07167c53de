import { FunctionalPlanSchema } from '@aqa/plan';
import { UiBrowserPool, createUiRunner } from '@aqa/ui-runner';
import { startTestSite } from '/work/main/packages/ui-runner/src/test-site';
const site = await startTestSite();
const pool = new UiBrowserPool({ executablePath: '/usr/bin/chromium', maxBrowsers: 1, stepTimeoutMs: 5000 });
const base = site.url('');
const yaml = `execution:
- executor: selenium
  scenario: shop
scenarios:
  shop:
    default-address: ${base}
    variables:
      who: Ada
    requests:
    - label: Fill the form
      url: /form
      actions:
      - assertTitle(Order form)
      - typeByID(name): \${who}
      - selectByName(size): Large
      - storeValueByName(size): size
      - storeString(calm): mood
      - typeByCSS(#note): \${mood}
      - assertValueByID(note): calm
      - doubleClickByID(twice)
      - assertTextByID(greeting): Double hello
      - clickByID(later)
      - waitForByID(arrived, visible): 2s
      - storeTextByID(arrived): arrival
      - type: click
        locators:
        - id: not-there
        - css: "#send"
      - storeTitle(): title
      - screenshot(after-send.png)
      - pauseFor(100ms)
      assert:
      - Ordered by Ada
    - label: Result
      actions:
      - assertTextByXPath(//p[@id="result"]): Ordered by Ada, size l, note calm
      - go(/form)
      - clickByLinkText(Back to the shop)
      - assertTitle(Shop home)
    - label: Keys
      url: /form
      actions:
      - typeByName(customer): Bob
      - keysByName(customer): KEY_ENTER
      - assertTextByID(result): Ordered by Bob, size s, note
      - go(/form?who=\${arrival})
      - submitByID(note)
      - assertTitle(Order received)
`;
const plan = FunctionalPlanSchema.parse({ test_name: 'x', source: 'script_input', source_page: 'functional-script-input', test_framework: 'selenium', script_content: yaml });
const t = Date.now();
const run = createUiRunner(pool)(plan, { saveScreenshot: async (s) => `shot-${s.label}` });
const out = await run.result;
console.log(Date.now() - t, 'ms');
for (const c of out.validation_results) console.log(c.api_name, c.success, c.error, c.status_code, JSON.stringify(c.ui?.actions.map(a => [a.action, a.passed, a.locator, a.message])), JSON.stringify(c.ui?.screenshots), c.ui?.timings);
console.log(out.status, out.error, out.summary);
await pool.close(); await site.close();
