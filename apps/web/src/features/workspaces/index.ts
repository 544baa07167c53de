export { WorkspaceSwitcher } from './components/WorkspaceSwitcher';
export { useWorkspaceLink } from './hooks/useWorkspaceLink';
export { workspaceName } from './model/workspace-name';
