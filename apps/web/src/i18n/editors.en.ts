/**
 * The code editors of the script and body fields, and the import screen's choice of operations
 * (docs/reference/01-authoring.md §2 "Performance: script upload", §9 "Editors").
 */
export const editorsEn = {
  'codeEditor.refused':
    'Not added: the text would be {length} characters long, and this field holds at most {max} characters. Nothing was changed.',
  'codeEditor.overLimit':
    'This text is {length} characters long; this field holds at most {max} characters. Shorten it before saving.',
  'codeEditor.fileTooLong':
    '{name} is not loaded: its script is {length} characters long, and a script holds at most {max} characters.',
  'list.showMore': 'Show {more} more ({shown} of {total} shown)',
} as const;
