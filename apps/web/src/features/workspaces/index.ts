export { WorkspaceSwitcher } from './components/WorkspaceSwitcher';
export { workspaceName } from './model/workspace-name';
