/** English strings of Settings → API tokens (docs/adr/0012-api-tokens-and-sessions.md); spread into `en.ts`. Keys start with `settings.tokens.`. */
export const settingsTokensEn = {
  'settings.tokens.title': 'API tokens',
  'settings.tokens.text':
    'A token lets a CI job or the aqa command line call the API as you: it can run and read your tests. It cannot create or revoke tokens, change your profile or password, or sign you out. Load agents (aqa agent) need a token of their own scope, which can do nothing else.',
  'settings.tokens.name': 'Token name',
  'settings.tokens.namePlaceholder': 'e.g. GitHub Actions',
  'settings.tokens.expiry': 'Expires after (days)',
  'settings.tokens.expiryPlaceholder': 'Never',
  'settings.tokens.expiryHint': 'From 1 to {max} days. Leave empty for a token that never expires.',
  'settings.tokens.scope': 'Scope',
  'settings.tokens.scopeApi': 'API: CI jobs and the aqa command line',
  'settings.tokens.scopeAgent': 'Load agent: aqa agent only',
  'settings.tokens.scopeApiHint':
    'Calls the API as you: it can run and read your tests. Load agents refuse it.',
  'settings.tokens.scopeAgentHint':
    'For aqa agent on a load machine: it registers agents and runs their share of your runs, and is refused everywhere else, so a machine that leaks it cannot read or start your tests.',
  'settings.tokens.scopeInvalid': 'The scope must be "api" (the API as you) or "agent" (load agents only)',
  'settings.tokens.badgeApi': 'API',
  'settings.tokens.badgeAgent': 'Load agent',
  'settings.tokens.usageAgent':
    'Give it to aqa agent with --token, or as AQA_TOKEN (Download App shows the command).',
  'settings.tokens.create': 'Create token',
  'settings.tokens.creating': 'Creating...',
  'settings.tokens.nameRequired': 'Please enter a token name',
  'settings.tokens.nameTooLong': 'A token name is at most {max} characters',
  'settings.tokens.nameControl': 'A token name cannot contain control characters or line breaks',
  'settings.tokens.nameIllFormed':
    'A token name must be well-formed text: it holds half of a character (a lone UTF-16 surrogate). Type or paste it again.',
  'settings.tokens.expiryInvalid':
    'Expiry must be a whole number of days from 1 to {max}, or left empty for a token that never expires',
  'settings.tokens.tooMany':
    'You already have {max} API tokens. Revoke one you no longer use before creating another.',
  'settings.tokens.createdTitle': 'Token "{name}" created',
  'settings.tokens.createdWarning': 'Copy it now: it will not be shown again.',
  'settings.tokens.usage':
    'Send it as the header Authorization: Bearer <token>, or give it to aqa with --token.',
  'settings.tokens.tokenLabel': 'The new API token',
  'settings.tokens.copy': 'Copy',
  'settings.tokens.copied': 'Token copied to clipboard',
  'settings.tokens.copyFailed': 'Could not copy the token: select it and copy it by hand.',
  'settings.tokens.done': 'Done, I have copied it',
  'settings.tokens.listTitle': 'Your tokens',
  'settings.tokens.count': '{count} of {max}',
  'settings.tokens.loading': 'Loading tokens...',
  'settings.tokens.loadFailed': 'Failed to load API tokens',
  'settings.tokens.empty': 'No API tokens yet',
  'settings.tokens.emptyText': 'Create one above for your CI job or the aqa command line.',
  'settings.tokens.created': 'Created {date}',
  'settings.tokens.lastUsed': 'Last used {date}',
  'settings.tokens.neverUsed': 'Never used',
  'settings.tokens.expires': 'Expires {date}',
  'settings.tokens.neverExpires': 'Never expires',
  'settings.tokens.expiredOn': 'Expired {date}',
  'settings.tokens.expired': 'Expired',
  'settings.tokens.revoke': 'Revoke',
  'settings.tokens.revokeLabel': 'Revoke the token {name}',
  'settings.tokens.confirmRevoke':
    'Revoke the token "{name}"? Anything that uses it stops working at once. This cannot be undone.',
  'settings.tokens.revoked': 'Token "{name}" revoked',
  'settings.tokens.revokeFailed': 'Failed to revoke the token: {message}',
  'settings.tokens.createFailed': 'Failed to create the token: {message}',
} as const;
