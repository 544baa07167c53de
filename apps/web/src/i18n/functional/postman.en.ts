/**
 * English strings of a Postman collection's parts in the API editor (docs/adr/0029-postman-collections.md):
 * variables, environment, data file, options and scripts; spread into `en.ts`. Keys start with `functional.postman.`.
 */
export const functionalPostmanEn = {
  'functional.postman.importedTests': '{tests}: {rules}, {scripts}, {left} left out',
  'functional.postman.count.tests': '{count} tests',
  'functional.postman.count.testsOne': '1 test',
  'functional.postman.count.rules': '{count} rules',
  'functional.postman.count.rulesOne': '1 rule',
  'functional.postman.count.scripts': '{count} scripts',
  'functional.postman.count.scriptsOne': '1 script',
  'functional.postman.summaryTitle': 'Postman tests of {file}',
  'functional.postman.summaryText':
    'Rules: tests read as validation rules, named as the test, in each API. Scripts: tests that run as written, as Newman runs them (the Scripts of each API, and of the collection above). Left out: tests that cannot run.',
  'functional.postman.noRulesScripts':
    'No rules: its Postman test scripts judge the call, with no status check added, as in Newman.',
  'functional.postman.noRulesAnswered':
    'No rules: the call passes once answered, whatever its status (the status-200 default is off for this plan, as in Newman).',
  'functional.postman.leftOut': 'Tests left out: {list}',
  'functional.postman.leftOutItem': '{request} line {line} ({reason})',
  'functional.postman.filesAttached': 'Set for the collection: {files}',
  'functional.postman.title': 'Variables and data',
  'functional.postman.text':
    'Values every API can use as {{name}}: the environment wins over the collection variables, which win over the globals. A data file runs one iteration per row, as Newman -d.',
  'functional.postman.scope.variables': 'Collection variables',
  'functional.postman.scope.environment': 'Environment',
  'functional.postman.scope.globals': 'Globals',
  'functional.postman.variable.name': 'Name',
  'functional.postman.variable.value': 'Value',
  'functional.postman.noVariables': 'None yet.',
  'functional.postman.addVariable': 'Add variable',
  'functional.postman.removeVariable': 'Remove {scope} variable {number}',
  'functional.postman.addEnvironment': 'Add environment',
  'functional.postman.addGlobals': 'Add globals',
  'functional.postman.environmentName': 'Environment name',
  'functional.postman.removeEnvironment': 'Remove the environment',
  'functional.postman.dataTitle': 'Data file',
  'functional.postman.dataText':
    'A CSV with a header line or a JSON array of objects: each row is one iteration, its columns {{variables}}.',
  'functional.postman.dataRows': '{count} rows, one iteration each',
  'functional.postman.attachData': 'Attach a data file',
  'functional.postman.replaceData': 'Replace the data file',
  'functional.postman.removeData': 'Remove the data file {file}',
  'functional.postman.dataTooLarge': '{file} is larger than 5 MB, the most a data file may be',
  'functional.postman.cookieJar': 'Keep cookies per user (a cookie jar, as Newman)',
  'functional.postman.followRedirects': 'Follow redirects (off: the 3xx answer is judged)',
  'functional.postman.defaultStatusRule':
    'Judge an API with no rules or tests by status 200 (off: as Newman, an answer is enough)',
  'functional.postman.scriptsTitle': 'Scripts',
  'functional.postman.scriptsText':
    'Postman scripts that did not become rules or captures: they run as written, in a sandbox with no network or files but pm.sendRequest.',
  'functional.postman.scriptLabel': '{event} script of the {origin}',
  'functional.postman.removeScript': 'Remove the {label}',
  'functional.postman.event.prerequest': 'Pre-request',
  'functional.postman.event.test': 'Test',
  'functional.postman.folder': 'Folder: {folder}',
  'functional.postman.origin.collection': 'collection',
  'functional.postman.origin.request': 'request',
  'functional.postman.origin.folder': 'folder {name}',
} as const;
