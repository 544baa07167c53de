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
} as const;
