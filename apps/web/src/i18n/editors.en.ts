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
  'importPick.title': 'Choose the operations to import',
  'importPick.text':
    '{source} has {total} operations. Find the ones this plan should call: only the selected ones are imported.',
  'importPick.search': 'Search',
  'importPick.searchPlaceholder': 'Path, method, tag or operationId',
  'importPick.tag': 'Tag',
  'importPick.allTags': 'All tags',
  'importPick.method': 'Method',
  'importPick.allMethods': 'All methods',
  'importPick.selected': '{selected} of {total} selected',
  'importPick.shown': '{count} shown',
  'importPick.selectAll': 'Select all',
  'importPick.selectAllShown': 'Select the {count} shown',
  'importPick.selectNone': 'Select none',
  'importPick.selectNoneShown': 'Clear the {count} shown',
  'importPick.noMatch': 'No operation matches the search and filters.',
  'importPick.back': 'Back',
  'importPick.import': 'Import {count} selected',
} as const;
