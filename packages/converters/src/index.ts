export { generateScript, type ScriptOptions } from './export/generate-script';
export { planToJmx, JMETER_ERROR_BODY_VARIABLE, type JmxOptions } from './export/plan-to-jmx';
export {
  JMETER_ELEMENTS,
  jmeterHasJsonExtractor,
  parseJmeterVersion,
  type JmeterElement,
} from './export/jmeter-versions';
export {
  JMETER_LEGACY_THREAD_STACK,
  JSON_REGEX_NESTING,
  JSON_REGEX_PREFIX_CHARS,
  jsonPathRegexes,
} from './export/json-path-regex';
export { planToK6 } from './export/plan-to-k6';
export { planToLocust } from './export/plan-to-locust';
export { planToSoapUi } from './export/plan-to-soapui';
export { planToTaurus, taurusSaysProfile } from './export/plan-to-taurus';
export { planToPostman, POSTMAN_SCHEMA } from './export/plan-to-postman';
export type { PostmanExport } from './export/plan-to-postman';
export { planToCsv, planToTableRows, planToXlsx } from './export/plan-to-table';
export { SCRIPT_EXTENSIONS, fileStem, scriptFileName } from './export/file-name';
export type { GeneratedFile, GeneratedScript, ScriptSource, ScriptWarning } from './export/script-model';
export { importFile, documentKind, normalizeFormat, FORMAT_NAMES } from './import/import-file';
export type { ImportFileInput } from './import/import-file';
export { openApiToPlan, openApiDocumentToPlan, BASE_URL_PLACEHOLDER } from './import/openapi-to-plan';
export type { OpenApiImportOptions } from './import/openapi-to-plan';
export { postmanToPlan, postmanDocumentToPlan } from './import/postman-to-plan';
export type { PostmanImportOptions } from './import/postman-to-plan';
export { harToPlan, harDocumentToPlan } from './import/har-to-plan';
export { curlToPlan } from './import/curl-to-plan';
export { csvToPlan, parseCsv, sampleCsv, TABLE_COLUMNS } from './import/csv-to-plan';
export { xlsxToPlan, readXlsxRows, writeXlsx, sampleXlsx } from './import/xlsx-to-plan';
export {
  DOCUMENTED_SCHEMA_RULE,
  DOCUMENTED_STATUS_RULE,
  planToFunctional,
  responseValidations,
  stepToFunctionalApi,
} from './import/plan-to-functional';
export { draft4Exclusive } from './import/openapi-responses';
export { decodeText } from './import/decode-text';
export type { DecodedText, TextEncodingName } from './import/decode-text';
export { IMPORT_FORMATS, ImportError } from './import/import-model';
export type {
  ExpectedResponse,
  ImportedSettings,
  ImportFormat,
  ImportInfo,
  ImportResult,
  ImportWarning,
  NeededValue,
  StepSource,
} from './import/import-model';
export type { ImportSource } from './import/read-document';
export type { TableColumn } from './import/table-to-plan';
export { readTaurusScript } from './import/taurus/read-taurus';
export { taurusToPlan } from './import/taurus/taurus-to-plan';
export { TaurusScriptError } from './import/taurus/taurus-model';
export type {
  TaurusApi,
  TaurusDataSource,
  TaurusReadOptions,
  TaurusReadResult,
  TaurusWarning,
  TaurusWarningEffect,
} from './import/taurus/taurus-model';
export { readSeleniumScript, seleniumExecution } from './import/taurus/selenium/read-selenium';
export { taurusScriptFramework } from './import/taurus/script-framework';
export { DEFAULT_WAIT_MS, KNOWN_ACTIONS } from './import/taurus/selenium/selenium-actions';
export { SeleniumScriptError } from './import/taurus/selenium/selenium-model';
export type {
  SeleniumExecution,
  SeleniumLocator,
  SeleniumLocatorKind,
  SeleniumPage,
  SeleniumReadResult,
  SeleniumStep,
  SeleniumStepKind,
  SeleniumStepSource,
  SeleniumWaitState,
  UnknownSeleniumAction,
} from './import/taurus/selenium/selenium-model';
export {
  postmanToFunctionalPlan,
  type LeftOutTest,
  type PostmanPlan,
  type PostmanPlanOptions,
  type PostmanTestCounts,
} from './import/postman-to-functional';
export { readPostmanDataFile, readPostmanEnvironment } from './import/postman-files';
export type { PostmanDataFile, PostmanVariableFile } from './import/postman-files';
export { readTestScript } from './import/postman-tests';
export type { ScriptTest, TestScriptReading } from './import/postman-tests';
export { isSeleniumIdeProject, readSeleniumIdeProject } from './import/recordings/selenium-ide';
export type { SeleniumIdeOptions } from './import/recordings/selenium-ide';
export {
  RECORDING_FILE,
  RECORDING_FORMATS,
  RECORDING_NAMES,
  recordedPlan,
} from './import/recordings/recording-model';
export { looksLikePlaywright, readPlaywrightScript } from './import/recordings/playwright';
export type { RecordedTest, RecordingFormat, RecordingRead } from './import/recordings/recording-model';
export { isRecordingFormat, readRecording, recordingFormatOf } from './import/recordings/read-recording';
export type { RecordingOptions } from './import/recordings/read-recording';
export { isChromeRecording, readChromeRecording } from './import/recordings/chrome-recorder';
