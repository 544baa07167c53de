import type { Dispatch } from 'react';
import type { FunctionalApiForm, FunctionalFormAction } from '../model/functional-form';

/** What an API card hands each of its panels (validation rules, captures). */
export interface ApiPanelProps {
  api: FunctionalApiForm;
  dispatch: Dispatch<FunctionalFormAction>;
  /** The panel's problems: a rule's by its id, a capture's by `<captureId>.<field>`. */
  errors: Record<string, string>;
  testId: string;
}
