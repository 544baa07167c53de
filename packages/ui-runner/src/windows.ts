import type { Page } from 'playwright-core';
import type { UiAction } from '@aqa/plan';
import { type ActionContext, type ActionOutcome, locate, scopeOf, seconds } from './action-context';

/*
 * Selenium IDE's frames and windows (docs/adr/0030-recorded-ui-tests.md §5). selectFrame moves the
 * actions into a frame (`relative=top`, `relative=parent`, `index=N`, or a frame element's locator), as
 * WebDriver's switchTo().frame does; a navigation goes back to the top. A window is a page of the
 * browser context with a handle ("win-1"): storeWindowHandle keeps the current one's, a command that
 * opens a window (`opensWindow`) is followed by waitForWindow, which keeps the new one's; selectWindow
 * `handle=…` moves the actions to it; close closes the current one.
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
  return found;
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
      const current = scopeOf(ctx);
      if (step.frame === 'parent') {
        const parent = 'parentFrame' in current ? current.parentFrame() : null;
        ctx.frame = parent === null || parent === ctx.page.mainFrame() ? undefined : parent;
        return done('acting in the parent frame');
      }
      let element;
      let used: string | null = null;
      if (step.frame === 'index') {
        const frames = current.locator('iframe, frame');
        const count = await frames.count();
        if ((step.index ?? 0) >= count) {
          return fail(
            `expected a frame at index ${step.index ?? 0}; there ${count === 1 ? 'is 1 frame' : `are ${count} frames`}`,
          );
        }
        element = frames.nth(step.index ?? 0);
      } else {
        const found = await locate(step.locators ?? [], ctx);
        if (!('element' in found)) return found;
        element = found.element;
        used = found.used;
      }
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
      // The window the test began in has a handle before any other.
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
          return done(`a new window opened (${fresh.url()}): its handle ${handle} kept as ${step.variable}`);
        }
        if (Date.now() >= deadline)
          return fail(`expected a new window within ${seconds(timeoutMs)}; none opened`);
        ctx.signal.throwIfAborted();
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    }
    case 'selectWindow': {
      const text = ctx.render(step.handle).trim();
      if (!text.startsWith('handle=')) {
        return fail(`"${text}" is not a window handle (Selenium IDE writes handle=\${name})`);
      }
      const handle = text.slice('handle='.length);
      const page = handles(ctx).pageOf(handle);
      if (page === undefined || page.isClosed()) {
        return fail(`there is no open window with the handle "${handle}"`);
      }
      ctx.page = page;
      ctx.frame = undefined;
      await page.bringToFront().catch(() => undefined);
      return done(`acting in the window ${handle} (${page.url()})`);
    }
    case 'closeWindow': {
      const handle = handles(ctx).handleOf(ctx.page);
      await ctx.page.close();
      return done(`closed the window ${handle}`);
    }
  }
}
