/** English strings of single sign-on on the sign-in page (docs/adr/0033-single-sign-on.md); spread into `en.ts`. */
export const ssoEn = {
  'signIn.sso.button': 'Sign in with {name}',
  'signIn.sso.or': 'or with a password',
  'signIn.sso.only': 'This server signs you in through {name} only.',
  'signIn.sso.finishing': 'Signing you in...',
  'signIn.sso.failedTitle': 'Single sign-on did not sign you in',
  'signIn.sso.provider_unreachable':
    'The sign-in provider could not be reached. Try again in a moment, or tell the operator of this server.',
  'signIn.sso.expired':
    'The sign-in took too long, was already used, or started in another browser. Please sign in again.',
  'signIn.sso.refused_by_provider': 'The sign-in provider refused the sign-in.',
  'signIn.sso.no_email':
    'The sign-in provider did not give an e-mail address, which names your account here.',
  'signIn.sso.email_not_verified': 'The sign-in provider has not verified your e-mail address yet.',
  'signIn.sso.no_account':
    'No account here has your e-mail address. Ask the operator of this server for one.',
} as const;
