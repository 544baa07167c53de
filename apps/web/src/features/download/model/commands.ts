/**
 * The copy-ready commands of the Download App screen (docs/reference/02-running.md §2 "Download App"):
 * a terminal, a GitHub Actions job and a GitLab CI job that download the aqa command line from this
 * server and run one saved plan with an API token kept out of the command line (AQA_TOKEN).
 */

/** `aqa run` starts a performance plan; `aqa test` a functional one. */
export type PlanKind = 'performance' | 'functional';

export interface CommandInput {
  /** This server's address as the browser sees it (window.location.origin). */
  origin: string;
  /** The saved plan's id, or null before the user has one: the commands then name PLAN_ID. */
  planId: string | null;
  kind: PlanKind;
  /**
   * The team workspace the plan is in (docs/adr/0035-workspaces-and-roles.md), passed to aqa as
   * AQA_WORKSPACE; null or absent for the personal one, which a token acts in without it.
   */
  workspaceId?: string | null;
}

/** The variable aqa reads the workspace from (its --workspace option's default). */
export const WORKSPACE_ENV = 'AQA_WORKSPACE';

export interface CliCommands {
  download: string;
  terminal: string;
  github: string;
  gitlab: string;
}

/** Where the server serves the command line (GET /downloads/aqa.mjs). */
export const CLI_DOWNLOAD_PATH = '/downloads/aqa.mjs';
/** The JUnit file each command writes, which CI keeps as its test report. */
export const JUNIT_FILE = 'aqa-junit.xml';
/** The name the commands use for a plan not yet chosen. */
export const PLAN_ID_SLOT = 'PLAN_ID';

/** A word as the shell reads it: plain when it is only safe characters, else single-quoted. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The aqa command line for the plan, with the JUnit report. */
function aqaCommand(planId: string, kind: PlanKind): string {
  return `node aqa.mjs ${kind === 'performance' ? 'run' : 'test'} --plan ${shellWord(planId)} --junit ${JUNIT_FILE}`;
}

export function cliCommands({ origin, planId, kind, workspaceId }: CommandInput): CliCommands {
  const server = origin.replace(/\/+$/, '');
  const url = `${server}${CLI_DOWNLOAD_PATH}`;
  const run = aqaCommand(planId ?? PLAN_ID_SLOT, kind);
  const download = `curl -fsSL ${shellWord(url)} -o aqa.mjs`;
  const terminal = [
    // Asked without echo, so the token stays out of the shell's history.
    `read -rsp 'API token: ' AQA_TOKEN && export AQA_TOKEN`,
    `export AQA_SERVER=${shellWord(server)}`,
    ...(workspaceId ? [`export ${WORKSPACE_ENV}=${shellWord(workspaceId)}`] : []),
    download,
    run,
  ].join('\n');
  const github = [
    'name: AnybodyQA',
    'on: [push, workflow_dispatch]',
    'jobs:',
    '  aqa:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/setup-node@v4',
    '        with:',
    '          node-version: 20',
    '      - name: Download aqa',
    `        run: ${download}`,
    '      - name: Run the saved plan',
    `        run: ${run}`,
    '        env:',
    `          AQA_SERVER: ${JSON.stringify(server)}`,
    ...(workspaceId ? [`          ${WORKSPACE_ENV}: ${JSON.stringify(workspaceId)}`] : []),
    '          AQA_TOKEN: ${{ secrets.AQA_TOKEN }}',
    '      - name: Keep the JUnit report',
    '        if: always()',
    '        uses: actions/upload-artifact@v4',
    '        with:',
    '          name: aqa-junit',
    `          path: ${JUNIT_FILE}`,
  ].join('\n');
  const gitlab = [
    'aqa:',
    '  image: node:20',
    '  variables:',
    `    AQA_SERVER: ${JSON.stringify(server)}`,
    ...(workspaceId ? [`    ${WORKSPACE_ENV}: ${JSON.stringify(workspaceId)}`] : []),
    '  script:',
    `    - ${download}`,
    `    - ${run}`,
    '  artifacts:',
    '    when: always',
    '    reports:',
    `      junit: ${JUNIT_FILE}`,
  ].join('\n');
  return { download, terminal, github, gitlab };
}

/**
 * The terminal commands that start a load agent on another machine (docs/scale-out.md): download the
 * aqa command line from this server and run `aqa agent` with an agent token (scope "Load agent",
 * docs/adr/0023-agents-over-http.md) read without echo. The name is left to the shell ("$(hostname)"),
 * so each machine names itself.
 */
export function agentCommand(origin: string): string {
  const server = origin.replace(/\/+$/, '');
  return [
    `read -rsp 'Agent token (scope Load agent): ' AQA_TOKEN && export AQA_TOKEN`,
    `curl -fsSL ${shellWord(`${server}${CLI_DOWNLOAD_PATH}`)} -o aqa.mjs`,
    `node aqa.mjs agent --server ${shellWord(server)} --name "$(hostname)"`,
  ].join('\n');
}
