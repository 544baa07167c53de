import { Lexer } from 'yaml';

/**
 * How deeply a document may nest. The YAML parser and the importers walk documents recursively; a
 * document nested thousands of levels deep (100,000 "[" in a row) runs them out of stack, and the YAML
 * parser takes seconds to get there — worse, V8 may end the whole process instead of throwing when the
 * stack runs out inside its regular-expression compiler. No API description nests anywhere near these
 * limits, so documents beyond them are refused before they are parsed (the text) and before they are
 * imported (the value). See docs/design.md §11 "Bad input".
 */

/** Lists and objects inside each other. */
export const MAX_NESTING = 256;

/** Leading spaces of a YAML line: block nesting at two spaces a level, and the same limit. */
const MAX_INDENT = 2 * MAX_NESTING;

/**
 * Whether JSON or YAML text nests deeper than MAX_NESTING, found without building the document: flow
 * collections ("[", "{") counted from the YAML lexer's tokens (a single pass with no recursion, and the
 * parser's own reading of quotes and comments), block collections from each line's indentation and its
 * "- " markers.
 */
export function textNestsTooDeep(text: string): boolean {
  return blockNestsTooDeep(text) || flowNestsTooDeep(text);
}

function flowNestsTooDeep(text: string): boolean {
  let depth = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === '[' || token === '{') {
      if (++depth > MAX_NESTING) return true;
    } else if ((token === ']' || token === '}') && depth > 0) depth--;
  }
  return false;
}

function blockNestsTooDeep(text: string): boolean {
  for (let start = 0; start < text.length;) {
    let i = start;
    for (;;) {
      if (text[i] === ' ') i++;
      else if (text[i] === '-' && (text[i + 1] === ' ' || text[i + 1] === '\n')) i += 2;
      else break;
      if (i - start > MAX_INDENT) return true;
    }
    const end = text.indexOf('\n', i);
    start = end === -1 ? text.length : end + 1;
  }
  return false;
}

/**
 * Whether a parsed value nests deeper than MAX_NESTING, walked without recursion. A YAML alias is walked
 * where it is used, as the importers will (the alias count limit bounds how much that adds), and an alias
 * inside its own anchor nests without end, so it is too deep as well.
 */
export function valueNestsTooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= MAX_NESTING) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
