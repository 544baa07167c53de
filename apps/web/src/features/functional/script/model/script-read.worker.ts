import { answerRead, type ReadAnswer, type ReadRequest } from './script-reading';

/**
 * Reads scripts for the script screen in a worker (docs/reference/02-running.md §2 "Functional Script
 * Input screen"): the Taurus and Selenium readers take 0.5 s on 60 KB and 2 s on 1 MB, which would
 * otherwise hold the page while the user types (docs/performance.md "Script editors and large pastes").
 */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ReadRequest>) => void) | null;
  postMessage: (answer: ReadAnswer) => void;
};

scope.onmessage = (event) => {
  scope.postMessage(answerRead(event.data));
};
