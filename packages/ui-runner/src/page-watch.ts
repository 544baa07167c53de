import type { Page, Request, Response } from 'playwright-core';
import { UI_KEPT_CONSOLE_ERRORS, UI_KEPT_FAILED_REQUESTS, type UiStepDetails } from '@aqa/plan';
import type { GuardRoute } from './guard-route';

/*
 * What one step's page did besides what was asked (docs/design.md §9 "UI tests"): console errors and
 * uncaught exceptions, requests that failed or answered 4xx/5xx (the first 20 of each), and the main
 * document's last HTTP status. The watch listens for the whole run; begin() starts a step's record.
 */

type FailedRequest = UiStepDetails['failed_requests'][number];

export class PageWatch {
  private consoleErrors: string[] = [];
  private failedRequests: FailedRequest[] = [];
  private documentStatus: number | null = null;
  private navigations = 0;
  private loads = 0;
  private failedDocuments = 0;
  /** The main-frame navigations that failed since the step began (a refused or unreachable page). */
  private documentFailures: string[] = [];

  constructor(
    private readonly page: Page,
    private readonly route: GuardRoute,
  ) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.consoleError(message.text());
    });
    page.on('pageerror', (error) => this.consoleError(error.message));
    page.on('request', (request) => {
      if (this.isDocument(request)) this.navigations++;
    });
    page.on('load', () => this.loads++);
    page.on('requestfailed', (request) => this.requestFailed(request));
    page.on('response', (response) => this.response(response));
  }

  /** Starts a new step's record. */
  begin(): void {
    this.consoleErrors = [];
    this.failedRequests = [];
    this.documentStatus = null;
    this.documentFailures = [];
  }

  get console(): string[] {
    return [...this.consoleErrors];
  }

  get failed(): FailedRequest[] {
    return [...this.failedRequests];
  }

  /** The main document's status in this step (its last response), or null when none came. */
  get status(): number | null {
    return this.documentStatus;
  }

  /** Why the step's last document request failed, if one did. */
  get documentFailure(): string | undefined {
    return this.documentFailures.at(-1);
  }

  /** Counters a caller compares before and after an action, to see whether it started a navigation. */
  counts(): { navigations: number; loads: number; documentFailures: number } {
    return { navigations: this.navigations, loads: this.loads, documentFailures: this.failedDocuments };
  }

  private isDocument(request: Request): boolean {
    return request.isNavigationRequest() && request.frame() === this.page.mainFrame();
  }

  private consoleError(text: string): void {
    if (this.consoleErrors.length < UI_KEPT_CONSOLE_ERRORS) this.consoleErrors.push(text);
  }

  private requestFailed(request: Request): void {
    const error = this.route.refusalOf(request) ?? request.failure()?.errorText ?? 'failed';
    if (this.isDocument(request)) {
      this.failedDocuments++;
      this.documentFailures.push(error);
    }
    if (this.failedRequests.length < UI_KEPT_FAILED_REQUESTS) {
      this.failedRequests.push({ method: request.method(), url: request.url(), error });
    }
  }

  private response(response: Response): void {
    const request = response.request();
    if (this.isDocument(request)) this.documentStatus = response.status();
    if (response.status() >= 400 && this.failedRequests.length < UI_KEPT_FAILED_REQUESTS) {
      this.failedRequests.push({
        method: request.method(),
        url: request.url(),
        error: `HTTP ${response.status()}`,
      });
    }
  }
}
