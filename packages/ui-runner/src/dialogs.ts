import type { Dialog, Page } from 'playwright-core';
import type { UiAction } from '@aqa/plan';
import { type ActionContext, type ActionOutcome, judgement, seconds } from './action-context';

/*
 * Alerts, confirmations and prompts (docs/adr/0030-recorded-ui-tests.md §5), through Playwright's
 * page.on('dialog'). Both ways Selenium IDE has are kept: an answer chosen before the dialog
 * (chooseCancelOnNextConfirmation, answerOnNextPrompt …) answers it as it appears; without one, the
 * dialog stays open — the action that opened it ends there — for the next command to check
 * (assertAlert …) and answer (acceptAlert, webdriverChooseOkOnVisibleConfirmation …). Any other command
 * answers a dialog still open as Selenium IDE's own default does: OK (a prompt with its default text).
 */

type DialogStep = Extract<UiAction, { kind: 'dialog' }>;
type DialogType = DialogStep['dialog'];

interface Shown {
  type: string;
  message: string;
  /** Checked by an assert already. */
  asserted: boolean;
}

/** How long a dialog command waits for the dialog it is about to appear. */
const DIALOG_WAIT_MS = 5_000;
const POLL_MS = 25;

const NAMES: Record<string, string> = {
  alert: 'alert',
  confirm: 'confirmation',
  prompt: 'prompt',
  beforeunload: 'leave-page question',
};

export class Dialogs {
  private pending: Dialog | null = null;
  private readonly shown: Shown[] = [];
  private readonly presets: { confirm?: boolean; prompt?: string | null } = {};
  private readonly waiters = new Set<() => void>();
  /** Watching for a step with dialog commands; otherwise a dialog is dismissed, as Playwright does. */
  private active = false;

  private constructor(page: Page) {
    page.on('dialog', (dialog) => this.appeared(dialog));
  }

  private static readonly pages = new WeakMap<Page, Dialogs>();

  /** The page's dialogs, watched from the first call on. */
  static of(page: Page): Dialogs {
    let dialogs = Dialogs.pages.get(page);
    if (dialogs === undefined) {
      dialogs = new Dialogs(page);
      Dialogs.pages.set(page, dialogs);
    }
    return dialogs;
  }

  /** Begins watching for a step (its presets and the dialogs shown before it forgotten). */
  activate(): this {
    this.active = true;
    this.shown.length = 0;
    delete this.presets.confirm;
    delete this.presets.prompt;
    return this;
  }

  /** Ends the step's watch: a dialog still open is answered, later ones dismissed. */
  async deactivate(): Promise<void> {
    await this.closeOpen();
    this.active = false;
  }

  private appeared(dialog: Dialog): void {
    const type = dialog.type();
    if (!this.active) {
      dialog.dismiss().catch(() => undefined);
      return;
    }
    this.shown.push({ type, message: dialog.message(), asserted: false });
    if (this.shown.length > 100) this.shown.shift();
    const swallow = (): void => undefined;
    if (type === 'beforeunload') {
      dialog.accept().catch(swallow);
    } else if (type === 'confirm' && this.presets.confirm !== undefined) {
      (this.presets.confirm ? dialog.accept() : dialog.dismiss()).catch(swallow);
      delete this.presets.confirm;
    } else if (type === 'prompt' && this.presets.prompt !== undefined) {
      const answer = this.presets.prompt;
      (answer === null ? dialog.dismiss() : dialog.accept(answer)).catch(swallow);
      delete this.presets.prompt;
    } else {
      this.pending = dialog;
    }
    for (const wake of this.waiters) wake();
  }

  /** Resolves when a dialog is left open (for an action to end there); `stop` stops the watch. */
  opened(): { promise: Promise<string>; stop: () => void } {
    let wake = (): void => undefined;
    const promise = new Promise<string>((resolve) => {
      wake = () => {
        if (this.pending !== null)
          resolve(`it opened ${NAMES[this.pending.type()] ?? 'a dialog'} "${this.pending.message()}"`);
      };
      this.waiters.add(wake);
    });
    return { promise, stop: () => this.waiters.delete(wake) };
  }

  /** A dialog still open answered as Selenium IDE's default does: OK, a prompt with its default text. */
  async closeOpen(): Promise<void> {
    const dialog = this.pending;
    this.pending = null;
    if (dialog !== null)
      await dialog
        .accept(dialog.type() === 'prompt' ? dialog.defaultValue() : undefined)
        .catch(() => undefined);
  }

  async run(step: DialogStep, ctx: ActionContext): Promise<ActionOutcome> {
    const name = NAMES[step.dialog] ?? step.dialog;
    const text = ctx.render(step.text);
    const done = (message: string): ActionOutcome => ({ passed: true, locator: null, message });
    switch (step.act) {
      case 'acceptNext':
        if (step.dialog === 'confirm') this.presets.confirm = true;
        return done('the next confirmation will be answered OK');
      case 'dismissNext':
        if (step.dialog === 'confirm') this.presets.confirm = false;
        else this.presets.prompt = null;
        return done(`the next ${name} will be answered Cancel`);
      case 'answerNext':
        this.presets.prompt = text;
        return done(`the next prompt will be answered "${text}"`);
      case 'assert':
        return await this.assert(step, text, ctx);
      case 'accept':
      case 'dismiss':
      case 'answer': {
        const open = await this.waitFor(() => this.pending !== null, ctx);
        const dialog = this.pending;
        if (!open || dialog === null) {
          return {
            passed: false,
            locator: null,
            message: `expected an open ${name} within ${seconds(DIALOG_WAIT_MS)}; none was open`,
          };
        }
        this.pending = null;
        const what = `the ${NAMES[dialog.type()] ?? 'dialog'} "${dialog.message()}"`;
        if (step.act === 'dismiss') {
          await dialog.dismiss();
          return done(`answered Cancel to ${what}`);
        }
        await dialog.accept(step.act === 'answer' ? text : undefined);
        return done(step.act === 'answer' ? `answered "${text}" to ${what}` : `answered OK to ${what}`);
      }
    }
  }

  /** The oldest dialog of the type not yet checked has the text (waiting a while for one to appear). */
  private async assert(step: DialogStep, expected: string, ctx: ActionContext): Promise<ActionOutcome> {
    const judged = judgement(step);
    const name = NAMES[step.dialog] ?? step.dialog;
    const find = (): Shown | undefined => this.shown.find((s) => !s.asserted && s.type === step.dialog);
    await this.waitFor(() => find() !== undefined, ctx);
    const shown = find();
    if (shown === undefined) {
      const others = this.shown
        .filter((s) => !s.asserted)
        .map((s) => `${NAMES[s.type] ?? s.type} "${s.message}"`);
      return judged(
        false,
        null,
        'contains_text',
        expected,
        null,
        `expected ${name === 'alert' ? 'an' : 'a'} ${name} "${expected}" within ${seconds(DIALOG_WAIT_MS)}; ${
          others.length === 0 ? 'none was shown' : `there was ${others.join(', ')}`
        }`,
      );
    }
    shown.asserted = true;
    return shown.message === expected
      ? judged(true, null, 'contains_text', expected, shown.message, `the ${name} said "${shown.message}"`)
      : judged(
          false,
          null,
          'contains_text',
          expected,
          shown.message,
          `expected the ${name} "${expected}", it said "${shown.message}"`,
        );
  }

  private async waitFor(holds: () => boolean, ctx: ActionContext): Promise<boolean> {
    const deadline = Date.now() + Math.min(DIALOG_WAIT_MS, ctx.remainingMs());
    while (!holds()) {
      if (Date.now() >= deadline || ctx.signal.aborted) return false;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    return true;
  }
}

export type { DialogType };
