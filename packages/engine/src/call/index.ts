/*
 * The call core's public face (docs/call-core.md), as `@aqa/engine/call`: what a caller outside the
 * engine (Validate's judging thread) reads without loading the load engine behind `@aqa/engine`.
 */
export { isHttpValidation, judge, statusMatches } from './judge';
export { bodyJson, bodyXml, type ResponseView } from './response-view';
export {
  compileExtraction as compileEntryExtraction,
  compileRuleCheck,
  EntryCheckError,
  type AssertionReading,
} from './entry-checks';
export { compileJsonPath, jsonValueText } from './json-path';
export { evaluateXPath } from './xpath-rule';
export { OAuth2Tokens, type TokenProblem, type TokenSender } from './oauth2-tokens';
export { entryRequestParts, oauth2Spec, type EntryRequestParts, type OAuth2Spec } from './request-parts';
export { Template, TemplateScope } from './template';
