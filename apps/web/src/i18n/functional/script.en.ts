/** English strings of the functional script input screen; spread into `en.ts`. Keys start with `functional.script.`. */
export const functionalScriptEn = {
  // The screen (docs/reference/02-running.md §2 "Functional Script Input screen").
  'functional.script.title': 'Script Functional Test',
  'functional.script.subtitle':
    'Paste or load a Taurus script, or turn a Postman, OpenAPI, CSV or Excel file into one; see what will run, then run it.',
  'functional.script.loadFailed': 'Failed to load test plan: {message}',
  // Script source.
  'functional.script.taurusTitle': 'Taurus Script Configuration',
  'functional.script.seleniumTitle': 'Selenium Script Configuration',
  'functional.script.sourceText':
    'The requests, assertions and extractions of the script run as written; what cannot run is listed below with its line.',
  'functional.script.loadSample': 'Load Sample',
  'functional.script.loadFile': 'Load File',
  'functional.script.parsing': 'Parsing...',
  'functional.script.fileType': 'File type',
  'functional.script.kind.postman': 'Postman Collection',
  'functional.script.kind.swagger': 'Swagger/OpenAPI',
  'functional.script.kind.csv': 'CSV',
  'functional.script.kind.excel': 'Excel',
  'functional.script.scriptContent': 'Script Content (YAML) *',
  'functional.script.scriptPlaceholder':
    'execution:\n  - concurrency: 1\n    hold-for: 1m\n    scenario: my-api\n…',
  'functional.script.parsedApis': 'File parsed successfully! {count} APIs loaded and script generated.',
  'functional.script.postmanHint':
    'A Postman collection becomes a Taurus script of its requests here; its tests, environment and data file are not kept. To run its tests as Newman does, import it with its environment and data file on the API Test screen.',
  'functional.script.postmanHintLink': 'Open the API Test screen',
  'functional.script.postmanTestsLeft':
    "The collection's {count} tests are not in the script: import it on the API Test screen to run them.",
  'functional.script.parsedScript': 'File parsed successfully! Script has been loaded.',
  'functional.script.noScript': 'No script generated from file',
  'functional.script.parseFailed': 'Failed to parse file: {message}',
  'functional.script.refused': 'This script cannot run',
  'functional.script.atLine': 'Line {line}: {message}',
  'functional.script.readSummary': '{count} APIs will run · warnings: {warnings}',
  'functional.script.warningsTitle': 'What will not run as written ({count})',
  'functional.script.line': 'Line {line}',
  'functional.script.skippedEffect': 'skipped',
  'functional.script.refusedEffect': 'refused',
  'functional.script.editFailed': 'Could not change the script: {message}',
  // Parsed APIs.
  'functional.script.parsedTitle': 'Parsed APIs ({count}) - Execution Order',
  'functional.script.scriptChecks': '{count} checks in the script',
  'functional.script.headers': 'Headers',
  'functional.script.body': 'Body',
  'functional.script.params': 'Parameters',
  'functional.script.moveUp': 'Move {name} up',
  'functional.script.moveDown': 'Move {name} down',
  'functional.script.deleteApiNamed': 'Delete {name}',
  'functional.script.deleteApi': 'Delete',
  'functional.script.confirmDeleteApi':
    'Are you sure you want to delete the API "{name}"? This will also remove all its validations.',
  'functional.script.addForAll': 'Add Validations for All APIs',
  'functional.script.addedForAll': 'Added validations for {count} APIs',
  'functional.script.authTitle': 'Authorization Notice',
  'functional.script.authText': 'No API in this script sends an Authorization header.',
  'functional.script.addAuth': 'Add Authorization Header',
  'functional.script.authAsk':
    'Enter a token or API key. It is written into every request of the script as its Authorization header; a lone token is sent as "Bearer token".',
  'functional.script.authValue': 'Token or API key',
  // Global rules and help.
  'functional.script.globalTitle': 'Global Validation Rules',
  'functional.script.globalText': 'Checked on every API of the script, after its own assertions.',
  'functional.script.globalRules': 'Rules for every API',
  'functional.script.noGlobalRules': 'No global rules.',
  'functional.script.apiRulesText':
    'Checked after the script’s own assertions; kept with the plan, not written into the script.',
  'functional.script.noApiRules': 'No rules added here: the call passes when the status is 200.',
  'functional.script.noApiRulesScript': 'No rules added here: the script’s own checks judge this call.',
  'functional.script.dataTitle': 'Data files',
  'functional.script.dataText':
    'The CSV files the script’s data-sources name. Attach each one; it is saved with the plan and read one row per iteration.',
  'functional.script.dataMissing': 'Not attached',
  'functional.script.dataRows': '{count} lines',
  'functional.script.dataAttach': 'Attach',
  'functional.script.dataReplace': 'Replace',
  'functional.script.dataRemove': 'Remove {name}',
  'functional.script.dataFailed': 'Could not read the file: {message}',
  'functional.script.helpTitle': 'Writing checks in a Taurus script',
  'functional.script.helpAssert':
    'Put checks under a request’s assert section: each item has contains (a list), subject (body, headers or http-code) and not.',
  'functional.script.helpStatus': 'status_code: assert with subject: http-code and contains: ["200"].',
  'functional.script.helpContains':
    'contains: the text the response body must hold (not: true for must not).',
  'functional.script.helpJsonPath':
    'jsonpath: assert-jsonpath with jsonpath: $.id and expected-value; extract-jsonpath saves a value for later requests as ${name}.',
  'functional.script.helpWarnings':
    'Blocks such as if, loop and while, other executors and missing files are listed with their line and are skipped or refused.',
  // Actions and alerts (§2, §8).
  'functional.script.cancel': 'Cancel',
  'functional.script.save': 'Save Test Plan',
  'functional.script.saving': 'Saving...',
  'functional.script.update': 'Update Test Plan',
  'functional.script.updating': 'Updating...',
  'functional.script.start': 'Start Test',
  'functional.script.starting': 'Starting Test...',
  'functional.script.saved': 'Test plan saved successfully!',
  'functional.script.updated': 'Test plan updated successfully!',
  'functional.script.saveFailed': 'Failed to save test plan: {message}',
  'functional.script.updateFailed': 'Failed to update test plan: {message}',
  'functional.script.saveBeforeRunFailed': 'Failed to save test plan before running test',
  'functional.script.startFailed': 'Failed to start functional test: {message}',
  'functional.script.scriptRequired': 'Script content is required',
} as const;
