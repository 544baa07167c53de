/**
 * English strings of the flows of a performance plan (docs/adr/0027-load-profiles.md "Flows"): the
 * Flow field of each call and the Flows section of the settings. Keys start with `flows.`.
 */
export const flowsEn = {
  'flows.title': 'Flows',
  'flows.text':
    'Each iteration of a virtual user runs one flow’s calls in order, the flow chosen in proportion to the weights. Every call then names its flow.',
  'flows.name': 'Flow name',
  'flows.weight': 'Weight',
  'flows.weightHint': '1 to 1000; a flow of weight 70 beside one of 30 runs 70 % of the iterations',
  'flows.share': '{share} % of the iterations',
  'flows.add': 'Add flow',
  'flows.addNamed': 'Add the flows the calls name: {names}',
  'flows.remove': 'Remove flow {name}',
  'flows.unnamed': '(unnamed)',
  'flows.scriptsNote':
    'The built-in engine and generated JMeter, K6 and Locust scripts run the flows; Taurus and SoapUI scripts do not carry them yet and say so in their warnings. A plan with flows runs on this server, not on load agents.',
  'flows.entryFlow': 'Flow',
  'flows.entryFlowHint': 'Optional: the flow this call belongs to',
  'flows.error.weight': 'A flow’s weight is a whole number from 1 to {max}',
  'flows.resultIterations': 'Iterations of flow {name}',
  'flows.resultShare': '{count} ({share} %)',
  'flows.results.title': 'Per flow',
  'flows.results.text':
    'Each flow’s iterations and share, and its calls’ requests and response times merged over the run',
  'flows.results.liveTitle': 'Per flow, live',
  'flows.results.liveText': 'Iterations and requests so far; response times of the last second',
  'flows.results.flow': 'Flow',
  'flows.results.iterations': 'Iterations',
  'flows.results.share': 'Share',
  'flows.results.requests': 'Requests',
  'flows.results.failed': 'Failed',
  'flows.results.errorRate': 'Error rate',
  'flows.results.avg': 'Avg',
  'flows.results.p95': 'p95',
  'flows.results.p99': 'p99',
  'flows.compare.requests': 'Requests of flow {name}',
  'flows.compare.p95': 'p95 of flow {name}',
} as const;
