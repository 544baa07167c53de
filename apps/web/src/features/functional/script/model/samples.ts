import type { ScriptFramework } from './script-form';

/**
 * The example scripts the script screen offers (docs/reference/02-running.md §2 "Functional Script Input
 * screen"): an API example for Taurus (§9: concurrency 1 and hold-for 1m) and a browser-based UI example
 * for Selenium. The UI example leaves out concurrency and hold-for, which a UI test does not use (the
 * reader would list them as skipped load settings, §3 "Selenium-style scripts"), and keeps one iteration.
 */

export const API_SAMPLE_SCRIPT = `execution:
  - executor: jmeter
    concurrency: 1
    hold-for: 1m
    iterations: 1
    scenario: api-check

scenarios:
  api-check:
    headers:
      Accept: application/json
    requests:
      - url: https://jsonplaceholder.typicode.com/posts/1
        method: GET
        label: Get post
        assert:
          - contains:
              - "200"
            subject: http-code
        assert-jsonpath:
          - jsonpath: $.id
            expected-value: 1
      - url: https://jsonplaceholder.typicode.com/posts
        method: POST
        label: Create post
        headers:
          Content-Type: application/json
        body:
          title: hello
          body: from Taurus
          userId: 1
        assert:
          - contains:
              - title
`;

export const SELENIUM_SAMPLE_SCRIPT = `execution:
  - executor: selenium
    iterations: 1
    scenario: sign-in

scenarios:
  sign-in:
    requests:
      - label: Home
        url: http://localhost:8080/
        actions:
          - assertTitle(Home)
          - clickByLinkText(Sign in)
          - waitForByID(username, Visible): 10s
          - typeByID(username): ada
          - typeByID(password): secret
          - clickByCSS(button[type=submit])
          - waitForByCSS(.welcome, Visible): 10s
          - assertTextByCSS(.welcome): Welcome, ada
      - label: Settings
        actions:
          - go(http://localhost:8080/settings)
          - selectByName(language): English
          - clickByID(save)
          - screenshot(settings.png)
`;

/** The sample of each framework. */
export const SAMPLE_SCRIPTS: Record<ScriptFramework, string> = {
  taurus: API_SAMPLE_SCRIPT,
  selenium: SELENIUM_SAMPLE_SCRIPT,
};
