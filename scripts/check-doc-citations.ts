/**
 * Every rule a comment cites must be findable without leaving the repository: a citation such as
 * `docs/reference/01-authoring.md §3 "URL entry"` names a file that exists, a `## 3.` section in it, and
 * (when quoted) a name that appears in that section. Citations of the documents that used to live
 * outside the repository ("spec 01 §2", "DESIGN §4", ../shared/spec, STYLE.md) are refused outright.
 *
 * Run by scripts/check-doc-citations.test.ts (inside `npm test`); by hand: `npx tsx scripts/check-doc-citations.ts`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The files whose text is checked: sources, scripts, configs and documents. */
const CHECKED_FILE = /\.(?:ts|tsx|js|mjs|cjs|md|json)$/;
/** This checker and its test quote bad citations on purpose. */
const SELF = new Set(['scripts/check-doc-citations.ts', 'scripts/check-doc-citations.test.ts']);

export interface Citation {
  /** Repository-relative path of the cited document, e.g. `docs/design.md`. */
  doc: string;
  /** Cited section numbers, in order (a range §7–§8 gives 7 and 8). */
  sections: number[];
  /** Quoted names after a section, e.g. §3 "URL entry" → { 3: ['URL entry'] }. */
  names: Map<number, string[]>;
  /** 1-based line of the citation in its file. */
  line: number;
}

export interface Problem {
  file: string;
  line: number;
  message: string;
}

const DOC_PATH = /\bdocs\/[A-Za-z0-9_./-]*?\.md\b/g;
// One step of what may follow a document path: a section (or a range), a quoted name, or a separator
// before the next section ("§3, §5", "§3 and §5"). Whitespace may include a comment's line break.
const SECTION = /^[\s*/]*§\s*(\d+)(?:\s*[–-]\s*§?\s*(\d+))?/;
const QUOTED = /^[\s*/]*(?:,\s*)?"([^"\n]+)"/;
const SEPARATOR = /^\s*(?:,|and|&)\s*(?=§)/;
/** Citations of documents outside the repository, which a newcomer cannot open. */
const OUTSIDE_CITATION =
  /\b[Ss]pec ?0[12]\b|\b[Ss]pec ?§|\bDESIGN(?:\.md)? ?§|\bshared\/(?:spec|DESIGN|STYLE)|\bSTYLE\.md\b/g;

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The `docs/….md` citations in a text, each with the sections and quoted names that follow it. */
export function findCitations(text: string): Citation[] {
  const citations: Citation[] = [];
  for (const match of text.matchAll(DOC_PATH)) {
    const citation: Citation = {
      doc: match[0],
      sections: [],
      names: new Map(),
      line: lineAt(text, match.index),
    };
    let rest = text.slice(match.index + match[0].length);
    // In Markdown the path may be a link's text: [docs/design.md](../design.md) §4.
    rest = rest.replace(/^\]\([^)\s]*\)/, '');
    let current: number | undefined;
    for (;;) {
      const section = SECTION.exec(rest);
      if (section) {
        const from = Number(section[1]);
        const to = section[2] === undefined ? from : Number(section[2]);
        for (let n = from; n <= Math.max(from, to); n++) citation.sections.push(n);
        current = from;
        rest = rest.slice(section[0].length);
        continue;
      }
      const quoted = current === undefined ? null : QUOTED.exec(rest);
      if (quoted && current !== undefined) {
        const names = citation.names.get(current) ?? [];
        names.push(quoted[1] ?? '');
        citation.names.set(current, names);
        rest = rest.slice(quoted[0].length);
        continue;
      }
      const separator = SEPARATOR.exec(rest);
      if (separator) {
        rest = rest.slice(separator[0].length);
        continue;
      }
      break;
    }
    citations.push(citation);
  }
  return citations;
}

/** A document's numbered sections (`## 3. Title`), each with its text up to the next `## `. */
export function sectionsOf(markdown: string): Map<number, string> {
  const sections = new Map<number, string>();
  const parts = markdown.split(/^(?=## )/m);
  for (const part of parts) {
    const heading = /^## (\d+)\./.exec(part);
    if (heading) sections.set(Number(heading[1]), part);
  }
  return sections;
}

/** Lower case, markdown emphasis and code marks dropped, whitespace collapsed. */
function plain(text: string): string {
  return text.replace(/[*`_]/g, '').replace(/\s+/g, ' ').toLowerCase();
}

/** What is wrong with the citations of one file; `readDoc` gives a document's text, or null when absent. */
export function checkText(file: string, text: string, readDoc: (doc: string) => string | null): Problem[] {
  const problems: Problem[] = [];
  for (const match of text.matchAll(OUTSIDE_CITATION)) {
    problems.push({
      file,
      line: lineAt(text, match.index),
      message: `"${match[0]}" cites a document outside the repository; cite docs/reference/…, docs/design.md or docs/style.md`,
    });
  }
  for (const citation of findCitations(text)) {
    const doc = readDoc(citation.doc);
    if (doc === null) {
      problems.push({ file, line: citation.line, message: `${citation.doc} does not exist` });
      continue;
    }
    const sections = sectionsOf(doc);
    for (const number of citation.sections) {
      const section = sections.get(number);
      if (section === undefined) {
        problems.push({ file, line: citation.line, message: `${citation.doc} has no section §${number}` });
        continue;
      }
      for (const name of citation.names.get(number) ?? []) {
        if (!plain(section).includes(plain(name))) {
          problems.push({
            file,
            line: citation.line,
            message: `${citation.doc} §${number} does not mention "${name}"`,
          });
        }
      }
    }
  }
  return problems;
}

/** The repository's files to check: tracked and new ones, without dependencies or build output. */
export function filesToCheck(root: string = ROOT): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((file) => CHECKED_FILE.test(file) && !SELF.has(file) && !file.includes('node_modules/'))
    .filter((file) => existsSync(join(root, file)));
}

/** Every problem of every checked file under `root`. */
export function checkRepository(root: string = ROOT, files: string[] = filesToCheck(root)): Problem[] {
  const docs = new Map<string, string | null>();
  const readDoc = (doc: string): string | null => {
    if (!docs.has(doc)) {
      const path = join(root, doc);
      docs.set(doc, existsSync(path) ? readFileSync(path, 'utf8') : null);
    }
    return docs.get(doc) ?? null;
  };
  return files.flatMap((file) => checkText(file, readFileSync(join(root, file), 'utf8'), readDoc));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problems = checkRepository();
  for (const p of problems) console.error(`${p.file}:${p.line}: ${p.message}`);
  console.log(
    problems.length === 0 ? 'Every cited document and section exists.' : `${problems.length} problems`,
  );
  process.exit(problems.length === 0 ? 0 : 1);
}
