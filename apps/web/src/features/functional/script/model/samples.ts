/**
 * The example scripts the script screen offers (docs/reference/02-running.md §2 "Functional Script Input
 * screen", §9: concurrency 1 and hold-for 1m). The browser-based UI example belongs to the UI test screen
 * (issue 15); the switch is `ScriptKind`.
 */

export type ScriptKind = 'api' | 'ui';

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

/** The samples by kind; a kind without one offers none yet. */
export const SAMPLE_SCRIPTS: Partial<Record<ScriptKind, string>> = { api: API_SAMPLE_SCRIPT };
