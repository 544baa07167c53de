import type { Frame, Page } from 'playwright-core';
import type { UiAction } from '@aqa/plan';
import { type ActionContext, type ActionOutcome, locate, scopeOf, seconds } from './action-context';

/*
 * Selenium IDE's frames and windows (docs/adr/0030-recorded-ui-tests.md §5). selectFrame moves the
 * actions into a frame (`relative=top`, `relative=parent`, `index=N`, or a frame element's locator), as
 * WebDriver's switchTo().frame does; a navigation goes back to the top. A window is a page of the
 * browser context with a handle ("win-1"): storeWindowHandle keeps the current one's, a command that
 * opens a window (`opensWindow`) is followed by waitForWindow, which keeps the new one's; selectWindow
 * `handle=…` moves the actions to it; close closes the current one. The Recorder's `target` selects the
 * window at an address (`url=…`, waited for as Puppeteer Replay waits for the target) or the one the test
 * began in (`main`). Switching moves the step's watch too, so navigations, screenshots and Web Vitals
 * are the selected window's.
 */

type Of<K extends UiAction['kind']> = Extract<UiAction, { kind: K }>;
export type WindowStep = Of<
  'selectFrame' | 'selectWindow' | 'storeWindowHandle' | 'closeWindow' | 'waitForWindow'
>;

const POLL_MS = 50;

/** The handles of a browser context's pages, given in the order they are first seen. */
class Handles {
  private readonly byPage = new Map<Page, string>();
  private n = 0;

  handleOf(page: Page): string {
    let handle = this.byPage.get(page);
    if (handle === undefined) {
      handle = `win-${++this.n}`;
      this.byPage.set(page, handle);
    }
    return handle;
  }

  has(page: Page): boolean {
    return this.byPage.has(page);
  }

  pageOf(handle: string): Page | undefined {
    for (const [page, h] of this.byPage) if (h === handle) return page;
    return undefined;
  }
}

const registry = new WeakMap<object, Handles>();

function handles(ctx: ActionContext): Handles {
  const context = ctx.page.context();
  let found = registry.get(context);
  if (found === undefined) {
    found = new Handles();
    registry.set(context, found);
  }
  // The window the run began in is known (win-1) before any other, so it is never taken for a new one.
  found.handleOf(ctx.firstPage);
  return found;
}

/** Moves the actions to another window: its top document, its watch, in front. */
async function actIn(ctx: ActionContext, page: Page): Promise<void> {
  ctx.page = page;
  ctx.frame = undefined;
  ctx.watch = ctx.watchOf(page);
  await page.bringToFront().catch(() => undefined);
}

/** The window to select: by handle, by address (waited for), or the one the test began in. */
async function windowFor(
  text: string,
  timeoutMs: number,
  ctx: ActionContext,
): Promise<{ page: Page; name: string; fresh?: boolean; frame?: Frame } | string> {
  if (text === 'main') {
    return ctx.firstPage.isClosed()
      ? 'the window the test began in is closed'
      : { page: ctx.firstPage, name: 'the window the test began in' };
  }
  if (text.startsWith('url=')) {
    const url = text.slice('url='.length);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const page = ctx.page
        .context()
        .pages()
        .find((p) => !p.isClosed() && p.url() === url);
      if (page !== undefined) {
        const fresh = !handles(ctx).has(page);
        const handle = handles(ctx).handleOf(page);
        await page.waitForLoadState('load', { timeout: ctx.timeoutMs }).catch(() => undefined);
        return { page, name: `the window ${handle} at ${url}`, fresh };
      }
      // Replay's target may be a frame of another site (an out-of-process iframe) rather than a popup.
      const frame = ctx.page
        .context()
        .pages()
        .filter((p) => !p.isClosed())
        .flatMap((p) => p.frames().filter((f) => f !== p.mainFrame()))
        .find((f) => f.url() === url);
      if (frame !== undefined) return { page: frame.page(), name: `the frame at ${url}`, frame };
      if (Date.now() >= deadline) {
        const open = ctx.page
          .context()
          .pages()
          .filter((p) => !p.isClosed())
          .map((p) => p.url());
        return `expected a window (or a frame) at ${url} within ${seconds(timeoutMs)}; the open ${open.length === 1 ? 'window is at' : 'windows are at'} ${open.join(', ')}`;
      }
      ctx.signal.throwIfAborted();
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
  if (!text.startsWith('handle=')) {
    return `"${text}" is not a window handle (Selenium IDE writes handle=\${name})`;
  }
  const handle = text.slice('handle='.length);
  const page = handles(ctx).pageOf(handle);
  if (page === undefined || page.isClosed()) return `there is no open window with the handle "${handle}"`;
  return { page, name: `the window ${handle}` };
}

/** Moves the actions to the parent of the current frame (the top stays the top). */
function toParent(ctx: ActionContext): void {
  const current = scopeOf(ctx);
  const parent = 'parentFrame' in current ? current.parentFrame() : null;
  ctx.frame = parent === null || parent === ctx.page.mainFrame() ? undefined : parent;
}

/** Enters the current document's Nth frame (iframe or frame, in document order); answers why not, or null. */
async function enterIndex(ctx: ActionContext, index: number): Promise<string | null> {
  const frames = scopeOf(ctx).locator('iframe, frame');
  const count = await frames.count();
  if (index >= count) {
    return `expected a frame at index ${index}; there ${count === 1 ? 'is 1 frame' : `are ${count} frames`}`;
  }
  const frame = await (await frames.nth(index).elementHandle({ timeout: ctx.timeoutMs }))?.contentFrame();
  if (frame === null || frame === undefined) return `the element at index ${index} is not a frame`;
  await frame.waitForLoadState('load', { timeout: ctx.timeoutMs }).catch(() => undefined);
  ctx.frame = frame;
  return null;
}

export async function runWindowAction(step: WindowStep, ctx: ActionContext): Promise<ActionOutcome> {
  const done = (message: string, locator: string | null = null): ActionOutcome => ({
    passed: true,
    locator,
    message,
  });
  const fail = (message: string): ActionOutcome => ({ passed: false, locator: null, message });
  switch (step.kind) {
    case 'selectFrame': {
      if (step.frame === 'top') {
        ctx.frame = undefined;
        return done('acting in the top of the page');
      }
      if (step.frame === 'parent') {
        toParent(ctx);
        return done('acting in the parent frame');
      }
      if (step.frame === 'path') {
        // Selenium IDE's index=0\1: each index a child frame of the one before, `..` its parent.
        for (const [n, part] of (step.path ?? []).entries()) {
          if (part === 'parent') {
            toParent(ctx);
            continue;
          }
          const entered = await enterIndex(ctx, part);
          if (entered !== null) return fail(`${entered} (part ${n + 1} of the frame path)`);
        }
        return done(`acting in the frame ${scopeOf(ctx).url()}`);
      }
      if (step.frame === 'index') {
        const entered = await enterIndex(ctx, step.index ?? 0);
        return entered === null ? done(`acting in the frame ${scopeOf(ctx).url()}`) : fail(entered);
      }
      const found = await locate(step.locators ?? [], ctx);
      if (!('element' in found)) return found;
      const { element, used } = found;
      const frame = await (await element.elementHandle({ timeout: ctx.timeoutMs }))?.contentFrame();
      if (frame === null || frame === undefined) {
        return {
          passed: false,
          locator: used,
          message: 'expected a frame (iframe or frame element); it is not one',
        };
      }
      await frame.waitForLoadState('load', { timeout: ctx.timeoutMs }).catch(() => undefined);
      ctx.frame = frame;
      return done(`acting in the frame ${frame.url()}`, used);
    }
    case 'storeWindowHandle': {
      const handle = handles(ctx).handleOf(ctx.page);
      ctx.variables[step.variable] = handle;
      return done(`stored the window handle ${handle} as ${step.variable}`);
    }
    case 'waitForWindow': {
      const known = handles(ctx);
      known.handleOf(ctx.page);
      const timeoutMs = Math.min(step.timeout_ms, ctx.remainingMs());
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const fresh = ctx.page
          .context()
          .pages()
          .find((p) => !known.has(p));
        if (fresh !== undefined) {
          const handle = known.handleOf(fresh);
          await fresh.waitForLoadState('load', { timeout: ctx.timeoutMs }).catch(() => undefined);
          ctx.variables[step.variable] = handle;
          return {
            ...done(`a new window opened (${fresh.url()}): its handle ${handle} kept as ${step.variable}`),
            opened: fresh,
          };
        }
        if (Date.now() >= deadline)
          return fail(`expected a new window within ${seconds(timeoutMs)}; none opened`);
        ctx.signal.throwIfAborted();
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    }
    case 'selectWindow': {
      const timeoutMs = Math.min(step.timeout_ms ?? 0, ctx.remainingMs());
      const found = await windowFor(ctx.render(step.handle).trim(), timeoutMs, ctx);
      if (typeof found === 'string') return fail(found);
      await actIn(ctx, found.page);
      if (found.frame !== undefined) ctx.frame = found.frame;
      const message = `acting in ${found.name} (${found.page.url()})`;
      // A popup first found by its address is a page the step opened.
      return found.fresh === true ? { ...done(message), opened: found.page } : done(message);
    }
    case 'closeWindow': {
      const handle = handles(ctx).handleOf(ctx.page);
      await ctx.page.close();
      return done(`closed the window ${handle}`);
    }
  }
}
