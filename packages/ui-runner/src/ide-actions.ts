import type { UiAction } from '@aqa/plan';
import {
  type ActionContext,
  type ActionOutcome,
  errorText,
  judgement,
  locate,
  scopeOf,
} from './action-context';
import { locatorText, resolveLocator } from './locators';

/*
 * The rest of Selenium IDE's command reference (docs/adr/0030-recorded-ui-tests.md §5): the mouse
 * pressed, let go, moved onto and off an element; drag and drop; a contenteditable's text; an
 * attribute and a count stored; a variable asserted. Each as Selenium IDE's WebDriver runtime does it.
 */

type Of<K extends UiAction['kind']> = Extract<UiAction, { kind: K }>;

export type IdeStep = Of<
  'mouse' | 'dragAndDrop' | 'editContent' | 'storeAttribute' | 'storeCount' | 'assertVariable'
>;

export async function runIdeAction(step: IdeStep, ctx: ActionContext): Promise<ActionOutcome> {
  switch (step.kind) {
    case 'assertVariable': {
      const judged = judgement(step);
      // Selenium IDE compares the variable as text: `${value}` != expected.
      const actual = ctx.variables[step.variable] ?? 'undefined';
      const expected = ctx.render(step.expected);
      return actual === expected
        ? judged(true, null, 'contains_text', expected, actual, `${step.variable} is "${actual}"`)
        : judged(
            false,
            null,
            'contains_text',
            expected,
            actual,
            `expected ${step.variable} to be "${expected}", it is "${actual}"`,
          );
    }
    case 'storeCount': {
      // As Selenium IDE: the elements its locator finds now, none being a count of 0.
      const first = step.locators[0]!;
      const count = await (await resolveLocator(scopeOf(ctx), first)).count().catch(() => 0);
      ctx.variables[step.variable] = String(count);
      return {
        passed: true,
        locator: locatorText(first),
        message: `stored the count ${count} of elements by ${locatorText(first)} as ${step.variable}`,
      };
    }
    default:
      break;
  }
  const found = await locate(step.locators, ctx);
  if (!('element' in found)) return found;
  const { element, used } = found;
  const done = (message: string): ActionOutcome => ({ passed: true, locator: used, message });
  const timeout = ctx.timeoutMs;
  try {
    switch (step.kind) {
      case 'storeAttribute': {
        const value = await element.getAttribute(step.attribute, { timeout });
        ctx.variables[step.variable] = value ?? '';
        return done(
          value === null
            ? `the element by ${used} has no attribute ${step.attribute}: stored "" as ${step.variable}`
            : `stored the attribute ${step.attribute} "${value}" as ${step.variable}`,
        );
      }
      case 'editContent': {
        const text = ctx.render(step.text);
        const editable = await element.evaluate(
          (el, value) => {
            if (!(el instanceof HTMLElement) || el.contentEditable !== 'true') return false;
            el.innerText = value;
            return true;
          },
          text,
          { timeout },
        );
        return editable
          ? done(`set the text of the element by ${used} to "${text}"`)
          : {
              passed: false,
              locator: used,
              message: `expected the element by ${used} to be content editable; it is not`,
            };
      }
      case 'dragAndDrop': {
        const target = await locate(step.to, ctx);
        if (!('element' in target)) return { ...target, message: `the drop target: ${target.message}` };
        await element.dragTo(target.element, { timeout });
        return done(`dragged the element by ${used} onto the element by ${target.used}`);
      }
      case 'mouse': {
        await element.scrollIntoViewIfNeeded({ timeout });
        const box = await element.boundingBox({ timeout });
        if (box === null)
          return { passed: false, locator: used, message: `the element by ${used} is not shown` };
        const mouse = ctx.page.mouse;
        if (step.event === 'out') {
          // As Selenium IDE: just above the element, else right of it, below it, left of it.
          const view = ctx.page.viewportSize() ?? { width: 1280, height: 720 };
          const point =
            box.y > 0
              ? { x: box.x + box.width / 2, y: box.y - 1 }
              : box.x + box.width < view.width
                ? { x: box.x + box.width + 1, y: box.y + box.height / 2 }
                : box.y + box.height < view.height
                  ? { x: box.x + box.width / 2, y: box.y + box.height + 1 }
                  : box.x > 0
                    ? { x: box.x - 1, y: box.y + box.height / 2 }
                    : null;
          if (point === null) {
            return {
              passed: false,
              locator: used,
              message: `the element by ${used} takes up the whole page: the mouse cannot leave it`,
            };
          }
          await mouse.move(box.x + box.width / 2, box.y + box.height / 2);
          await mouse.move(point.x, point.y);
          return done(`moved the mouse off the element by ${used}`);
        }
        const x = box.x + (step.offset?.x ?? box.width / 2);
        const y = box.y + (step.offset?.y ?? box.height / 2);
        const at = step.offset === undefined ? '' : ` at ${step.offset.x},${step.offset.y}`;
        await mouse.move(x, y);
        if (step.event === 'down') await mouse.down();
        if (step.event === 'up') await mouse.up();
        const verb = {
          down: 'pressed the mouse on',
          up: 'let the mouse go on',
          move: 'moved the mouse onto',
        }[step.event];
        return done(`${verb} the element by ${used}${at}`);
      }
    }
  } catch (error) {
    return {
      passed: false,
      locator: used,
      message: `${step.kind} on the element by ${used}: ${errorText(error, timeout)}`,
    };
  }
}
