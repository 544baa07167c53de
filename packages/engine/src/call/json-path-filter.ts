/*
 * The JSONPath check and filter evaluator live in the plan (packages/plan/src/json-path-filter.ts), so
 * the model's form check, the server's save and the engine's judge read a JSONPath alike.
 */
export { checkJsonPathFilters, JsonPathFilterError, JsonPathFilterScript, jsonPathProblem } from '@aqa/plan';
