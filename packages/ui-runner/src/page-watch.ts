import type { Page, Request, Response } from 'playwright-core';
import { UI_KEPT_CONSOLE_ERRORS, UI_KEPT_FAILED_REQUESTS, type UiStepDetails } from '@aqa/plan';
import { REFUSED_HEADER } from './guard-proxy';

/** Why the target guard refused a request, if it did. */
export type RefusalOf = (request: Request) => string | undefined;

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
  /** The guard's reason for the step's last refused document. */
  private documentRefusal: string | undefined;

  constructor(
    private readonly page: Page,
    private readonly refusalOf: RefusalOf,
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
    this.documentRefusal = undefined;
  }

  /** Why the step's last document got no answer from its target (refused by the guard, or unreachable). */
  get refusedDocument(): string | undefined {
    return this.documentRefusal;
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

  /** Counters a caller compares before and after an action, to see whether it started a navigation. */
  counts(): { navigations: number; loads: number; documentFailures: number } {
    return { navigations: this.navigations, loads: this.loads, documentFailures: this.failedDocuments };
  }

  private isDocument(request: Request): boolean {
    try {
      return request.isNavigationRequest() && request.frame() === this.page.mainFrame();
    } catch {
      // A service worker's request has no frame.
      return false;
    }
  }

  private consoleError(text: string): void {
    if (this.consoleErrors.length < UI_KEPT_CONSOLE_ERRORS) this.consoleErrors.push(text);
  }

  private requestFailed(request: Request): void {
    const refusal = this.refusalOf(request);
    const error = refusal ?? request.failure()?.errorText ?? 'failed';
    if (this.isDocument(request)) {
      this.failedDocuments++;
      if (refusal !== undefined) this.documentRefusal = refusal;
    }
    if (this.failedRequests.length < UI_KEPT_FAILED_REQUESTS) {
      this.failedRequests.push({ method: request.method(), url: request.url(), error });
    }
  }

  private response(response: Response): void {
    const request = response.request();
    const document = this.isDocument(request);
    // The guard's proxy answers a refused plain request, or one whose target it could not reach, itself:
    // its reason in words, not the target's answer.
    const refusal =
      response.headers()[REFUSED_HEADER] === undefined
        ? undefined
        : (this.refusalOf(request) ?? 'The target guard refused this request');
    if (document) {
      this.documentStatus = refusal === undefined ? response.status() : null;
      if (refusal !== undefined) this.documentRefusal = refusal;
    }
    if (
      (refusal !== undefined || response.status() >= 400) &&
      this.failedRequests.length < UI_KEPT_FAILED_REQUESTS
    ) {
      this.failedRequests.push({
        method: request.method(),
        url: request.url(),
        error: refusal ?? `HTTP ${response.status()}`,
      });
    }
  }
}
