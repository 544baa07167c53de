/** English strings of the Download App screen (docs/reference/02-running.md §2 "Download App"); spread into `en.ts`. Keys start with `download.`. */
export const downloadEn = {
  'download.title': 'Download App',
  'download.description':
    'The aqa command line runs your saved plans on this server from a terminal or a CI job, follows them live, and fails the build when a threshold or a validation fails.',
  'download.cliTitle': 'The aqa command line',
  'download.cliText':
    'One file, aqa.mjs. It needs Node.js 20 or newer and nothing else: nothing to install, no packages.',
  'download.button': 'Download aqa.mjs',
  'download.helpHint': 'Then {command} lists every option.',
  'download.exitTitle': 'Exit codes',
  'download.exit0': 'every threshold held and every call passed',
  'download.exit1': 'a threshold or a validation failed',
  'download.exit2':
    'the test could not run: the server could not be reached, the token was refused or the plan was not found (each said in words)',
  'download.planTitle': 'Plan',
  'download.planLabel': 'Saved plan',
  'download.planHint':
    'Its id fills in the commands below: aqa run starts a performance plan, aqa test a functional one.',
  'download.planGroupPerformance': 'Performance plans',
  'download.planGroupFunctional': 'Functional plans',
  'download.noPlans':
    'You have no saved plan yet. Save one and its id fills in the commands; until then they say PLAN_ID.',
  'download.plansFailed': 'Failed to load your plans',
  'download.loadingPlans': 'Loading your plans...',
  'download.tokenTitle': 'API token',
  'download.tokenText':
    'The commands read the token from AQA_TOKEN, so it stays out of the command line. Create one in Settings, then keep it as a CI secret.',
  'download.tokenLink': 'Create an API token',
  'download.commandsTitle': 'Commands',
  'download.terminal': 'Terminal',
  'download.terminalHint': 'Asks for the token without showing it, downloads aqa and runs the plan.',
  'download.github': 'GitHub Actions',
  'download.githubHint':
    'Save as .github/workflows/aqa.yml, and add AQA_TOKEN under Settings → Secrets and variables → Actions.',
  'download.gitlab': 'GitLab CI',
  'download.gitlabHint':
    'Add to .gitlab-ci.yml, and add AQA_TOKEN as a masked variable under Settings → CI/CD → Variables.',
  'download.copy': 'Copy',
  'download.copyLabel': 'Copy the {what} commands',
  'download.copied': 'Copied to clipboard',
  'download.copyFailed': 'Could not copy: select the text and copy it by hand.',
} as const;
