/**
 * Chai, as a script to evaluate inside the QuickJS VM (docs/adr/0028-postman-sandbox.md): its browser
 * build finds no `module` or `define` there and sets `globalThis.chai`, which the script's last
 * expression takes back off the global object, so the evaluation's value is Chai itself.
 */
import { chaiUmd } from './chai-umd';

let cached: string | undefined;

export function chaiSource(): string {
  cached ??= `${chaiUmd()}\n;(function () { var c = globalThis.chai; delete globalThis.chai; return c; })();`;
  return cached;
}
