/**
 * What the app may use of James, the assistant (docs/design.md §10): the header button with its panel,
 * and the provider of the plan on screen. Plan editors publish their plan through `./current-plan`.
 */
export { AssistantLauncher } from './components/AssistantLauncher';
export { CurrentPlanProvider } from './current-plan';
export { greetingName } from './model/greeting';
