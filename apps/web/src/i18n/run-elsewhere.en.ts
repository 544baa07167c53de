/**
 * English strings of a run the chosen tool cannot do, and of the one-click switch to the built-in engine or
 * Locust (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions"). Keys start with `runElsewhere.`.
 */
export const runElsewhereEn = {
  'runElsewhere.title': '{tool} on this server cannot run this plan',
  'runElsewhere.text':
    'Run it with the built-in engine or with Locust instead, or change what is named above.',
  'runElsewhere.failedTitle': 'Run it elsewhere',
  'runElsewhere.failedText':
    '{tool} could not run this plan. The built-in engine and Locust run the same plan.',
  'runElsewhere.builtin': 'Run with the built-in engine',
  'runElsewhere.locust': 'Run with Locust',
  'runElsewhere.starting': 'Starting…',
  'runElsewhere.failed': 'The run could not start: {message}',
} as const;
