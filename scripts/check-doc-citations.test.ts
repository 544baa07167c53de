import { describe, expect, it } from 'vitest';
import { checkRepository, checkText, findCitations, sectionsOf } from './check-doc-citations';

const DOC = [
  '# Reference',
  '',
  '## 2. Screens and routes',
  '',
  '### Performance: URL input',
  '',
  'An ordered list of API calls.',
  '',
  '## 3. Entities and their fields',
  '',
  '- **URL entry**: `method`, `url`.',
  '- **Run-test request**: `plan_id`.',
  '',
  '## 7. The calls it makes',
  '',
  'POST /api/run-test',
  '',
  '## 8. The error catalogue',
].join('\n');

const docs: Record<string, string> = { 'docs/reference/01-authoring.md': DOC };
const readDoc = (doc: string): string | null => docs[doc] ?? null;

describe('findCitations', () => {
  it('reads sections, ranges, lists and quoted names after a document path', () => {
    const [citation] = findCitations(
      '/** One call (docs/reference/01-authoring.md §3 "URL entry", "Run-test request", §7–§8). */',
    );
    expect(citation?.doc).toBe('docs/reference/01-authoring.md');
    expect(citation?.sections).toEqual([3, 7, 8]);
    expect(citation?.names.get(3)).toEqual(['URL entry', 'Run-test request']);
  });

  it('follows a citation across the line break of a block comment', () => {
    const [citation] = findCitations('/**\n * Rules of docs/reference/01-authoring.md\n * §2 and §3.\n */');
    expect(citation?.sections).toEqual([2, 3]);
    expect(citation?.line).toBe(2);
  });

  it('reads the sections after a Markdown link whose text is the path', () => {
    const [citation] = findCitations(
      'The engine ([docs/design.md](../../docs/design.md) §4, §8) runs plans.',
    );
    expect(citation?.sections).toEqual([4, 8]);
  });

  it('keeps two citations apart, and a path without a section is still a citation', () => {
    const citations = findCitations(
      '// docs/reference/01-authoring.md §5; docs/design.md §3. See docs/README.md.',
    );
    expect(citations.map((c) => [c.doc, c.sections])).toEqual([
      ['docs/reference/01-authoring.md', [5]],
      ['docs/design.md', [3]],
      ['docs/README.md', []],
    ]);
  });
});

describe('sectionsOf', () => {
  it('splits a document at its numbered second-level headings', () => {
    const sections = sectionsOf(DOC);
    expect([...sections.keys()]).toEqual([2, 3, 7, 8]);
    expect(sections.get(3)).toContain('Run-test request');
    expect(sections.get(3)).not.toContain('POST /api/run-test');
  });
});

describe('checkText', () => {
  it('accepts citations whose file, section and quoted name exist', () => {
    const text = [
      '// docs/reference/01-authoring.md §2 "Performance: URL input"',
      '/** docs/reference/01-authoring.md §3 "url entry", §7–§8 */',
    ].join('\n');
    expect(checkText('a.ts', text, readDoc)).toEqual([]);
  });

  it('names the file and line of a missing document, section or name', () => {
    const text = [
      'const a = 1;',
      '// docs/reference/03-functional.md §1',
      '// docs/reference/01-authoring.md §4',
      '// docs/reference/01-authoring.md §3 "Validation item"',
    ].join('\n');
    expect(checkText('src/a.ts', text, readDoc)).toEqual([
      { file: 'src/a.ts', line: 2, message: 'docs/reference/03-functional.md does not exist' },
      { file: 'src/a.ts', line: 3, message: 'docs/reference/01-authoring.md has no section §4' },
      {
        file: 'src/a.ts',
        line: 4,
        message: 'docs/reference/01-authoring.md §3 does not mention "Validation item"',
      },
    ]);
  });

  it('refuses citations of the spec, DESIGN and STYLE documents that live outside the repository', () => {
    const text = [
      '// spec 01 §5',
      '// DESIGN §4',
      '/* see ../shared/spec/02-running.md */',
      '// STYLE.md',
    ].join('\n');
    expect(checkText('b.ts', text, readDoc).map((p) => p.line)).toEqual([1, 2, 3, 4]);
  });
});

describe('the repository', () => {
  it('cites only documents and sections that exist in it', () => {
    const problems = checkRepository().map((p) => `${p.file}:${p.line}: ${p.message}`);
    expect(problems).toEqual([]);
  });
});
