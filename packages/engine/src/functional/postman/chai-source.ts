/**
 * Chai's source, as a script to evaluate inside the QuickJS VM (docs/adr/0028-postman-sandbox.md): the
 * package's one-file ESM build with its `export { … }` turned into a returned object.
 */
import { chaiEsm } from './chai-esm';

let cached: string | undefined;

export function chaiSource(): string {
  cached ??= chaiAsScript(chaiEsm());
  return cached;
}

/** Chai announces plugin calls through DOM events, which QuickJS does not have: the least it needs. */
const DOM_EVENTS = `
class Event { constructor(type) { this.type = type; } }
class EventTarget {
  constructor() { this.listeners = {}; }
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  removeEventListener(type, fn) { this.listeners[type] = (this.listeners[type] || []).filter((f) => f !== fn); }
  dispatchEvent(event) { for (const fn of this.listeners[event.type] || []) fn.call(this, event); return true; }
}`;

/** `(function(){ …chai… return { expect, … }; })()` from the ESM bundle's text. */
export function chaiAsScript(esm: string): string {
  const at = esm.lastIndexOf('\nexport {');
  if (at < 0) throw new Error("chai's build has no trailing `export { … }`: its layout changed");
  const names = esm
    .slice(at + '\nexport {'.length, esm.indexOf('}', at))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^(\w+)(?:\s+as\s+(\w+))?$/.exec(s);
      if (!m) throw new Error(`chai's build exports '${s}', which this loader cannot read`);
      return `${m[2] ?? m[1]}: ${m[1]}`;
    });
  return `(function () {\n${DOM_EVENTS}\n${esm.slice(0, at)}\nreturn { ${names.join(', ')} };\n})()`;
}
