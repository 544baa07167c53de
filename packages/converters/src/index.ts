export { generateScript } from './export/generate-script';
export { planToJmx } from './export/plan-to-jmx';
export { planToK6 } from './export/plan-to-k6';
export { planToLocust } from './export/plan-to-locust';
export { planToSoapUi } from './export/plan-to-soapui';
export { planToTaurus } from './export/plan-to-taurus';
export { SCRIPT_EXTENSIONS, scriptFileName } from './export/file-name';
export type { GeneratedFile, GeneratedScript, ScriptSource, ScriptWarning } from './export/script-model';
