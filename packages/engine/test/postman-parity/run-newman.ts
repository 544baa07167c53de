import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/*
 * Runs a Postman collection through real Newman (the npm package, a dev dependency of the repository
 * root), programmatically and with no reporter, and reads every assertion's outcome from its run
 * summary (summary.run.executions[].assertions). These outcomes are what AnybodyQA's runner is to be
 * compared with, assertion by assertion (README.md beside this file).
 */

/** One assertion as Newman judged it: a `pm.test` or a legacy `tests["…"] =`, in run order. */
export interface AssertionOutcome {
  /** 1-based, as a data file's rows are counted. */
  iteration: number;
  /** The request's (item's) name. */
  request: string;
  /** The folders the request sits in, outermost first; empty at the collection's top. */
  folderPath: string[];
  /** The test's name. */
  assertion: string;
  passed: boolean;
  /** Newman's message when the assertion failed. */
  error?: string;
}

export interface NewmanRunInput {
  /** A collection file's path (Postman v2.1 JSON). */
  collection: string;
  /** An environment file's path. */
  environment?: string;
  /** A CSV or JSON data file's path: one iteration per row. */
  data?: string;
  /** Runs only this folder (by name), as `newman run --folder`. */
  folder?: string;
  /** Environment values set over the file's, as `newman run --env-var name=value`. */
  envVar?: Readonly<Record<string, string>>;
}

/** What of a Postman SDK item (collection item or folder) the outcome reads. */
interface SdkItem {
  name: string;
  parent?: () => SdkItem | undefined;
}

interface NewmanExecution {
  cursor: { iteration: number };
  item: SdkItem;
  assertions?: { assertion: string; skipped?: boolean; error?: { message?: string } }[];
}

interface NewmanSummary {
  run: {
    executions: NewmanExecution[];
    failures: { error?: { name?: string; message?: string }; source?: { name?: string } }[];
    error?: unknown;
  };
}

interface Newman {
  run(
    options: Record<string, unknown>,
    callback: (error: Error | null, summary: NewmanSummary) => void,
  ): unknown;
}

const newman = createRequire(import.meta.url)('newman') as Newman;

/** A failure Newman reported that is no assertion: a script that threw, a request that got no answer. */
export interface NewmanError {
  /** The request (item) it happened in, or "?". */
  source: string;
  /** The error's name and message. */
  message: string;
}

/** Runs the collection through Newman and returns every assertion's outcome, in run order. */
export async function runNewman(input: NewmanRunInput): Promise<AssertionOutcome[]> {
  const { outcomes, errors } = await runNewmanWithErrors(input);
  // A script error (a test script that throws outside pm.test) is no assertion: a suite must not hide it.
  if (errors.length > 0) {
    const said = errors.map((e) => `${e.source}: ${e.message}`);
    throw new Error(`Newman reported errors that are not assertions: ${said.join('; ')}`);
  }
  return outcomes;
}

/**
 * As runNewman, but a failure that is no assertion is returned beside the outcomes instead of thrown
 * (bench/postman-real-parity.mjs runs collections written by others, whose scripts may throw).
 */
export function runNewmanWithErrors(
  input: NewmanRunInput,
): Promise<{ outcomes: AssertionOutcome[]; errors: NewmanError[] }> {
  return new Promise((resolve, reject) => {
    newman.run(
      {
        collection: input.collection,
        ...(input.environment === undefined ? {} : { environment: input.environment }),
        ...(input.data === undefined ? {} : { iterationData: input.data }),
        ...(input.folder === undefined ? {} : { folder: input.folder }),
        envVar: Object.entries(input.envVar ?? {}).map(([key, value]) => ({ key, value })),
        reporters: [],
        // A request that never answers must fail the test, not hold it.
        timeoutRequest: 10_000,
        timeoutScript: 5_000,
      },
      (error, summary) => {
        if (error !== null) return reject(error);
        try {
          resolve({ outcomes: outcomesOf(summary), errors: errorsOf(summary) });
        } catch (cause) {
          reject(cause instanceof Error ? cause : new Error(String(cause)));
        }
      },
    );
  });
}

function errorsOf(summary: NewmanSummary): NewmanError[] {
  return summary.run.failures
    .filter((f) => f.error?.name !== 'AssertionError')
    .map((f) => ({
      source: f.source?.name ?? '?',
      message: `${f.error?.name ?? 'Error'}: ${f.error?.message ?? '?'}`,
    }));
}

function outcomesOf(summary: NewmanSummary): AssertionOutcome[] {
  // Newman pushes an execution once per request it sends for the item: a pm.sendRequest in a script
  // pushes the same execution again, with the same assertions.
  const executions = [...new Set(summary.run.executions)];
  return executions.flatMap((execution) =>
    (execution.assertions ?? []).map((a) => ({
      iteration: execution.cursor.iteration + 1,
      request: execution.item.name,
      folderPath: foldersOf(execution.item),
      assertion: a.assertion,
      passed: a.error === undefined,
      ...(a.error === undefined ? {} : { error: a.error.message ?? 'failed' }),
    })),
  );
}

/** The folders an item sits in, outermost first (its parents, less the collection itself). */
function foldersOf(item: SdkItem): string[] {
  const names: string[] = [];
  for (let parent = item.parent?.(); parent?.parent?.() !== undefined; parent = parent.parent?.()) {
    names.unshift(parent.name);
  }
  return names;
}

/** The folder of the parity suite's files. */
export const PARITY_DIR = fileURLToPath(new URL('.', import.meta.url));
