/**
 * `aqa test recording.side|recording.json|login.spec.ts --server URL --token T [--base-url U]`: a
 * browser recording (a Selenium IDE project, a Chrome DevTools Recorder export, a Playwright codegen
 * script: docs/adr/0030-recorded-ui-tests.md) runs as a UI test on the server, since this command line
 * has no browser. The file is uploaded to POST /api/functional/parse-file, which reads it as the UI
 * screen's upload does; the UI plan it answers is saved under the recording's name (the user's UI plan
 * of that name is updated, else a new one is saved), run, and followed to its end; each recorded test
 * is printed with pass or fail and each command by the recorder's own name for it
 * (docs/recorded-ui-tests.md "From the command line").
 *
 * Exit codes as `aqa test`: 0 every recorded test passed; 1 one failed; 2 it could not run (no server,
 * an upload the server refused, a run refused, stopped or interrupted).
 */
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { z } from 'zod';
import { contract } from '@aqa/contract';
import { looksLikePlaywright, recordingFormatOf } from '@aqa/converters';
import { type CallResult, FunctionalPlanSchema, type FunctionalPlan } from '@aqa/plan';
import { msText } from '../functional/report';
import { RemoteClient, RemoteError, remoteTarget, SERVER_ENV, type RemoteTarget } from './remote-client';
import { followRun, remoteTestCommandWith } from './remote-test';

const out = (s: string): void => void process.stdout.write(s);

const RECORDERS = {
  'selenium-ide': 'a Selenium IDE project',
  'chrome-recorder': 'a Chrome DevTools Recorder export',
  playwright: 'a Playwright codegen script',
} as const;

/**
 * Which recording `file` is, told by its content as the server tells it (a `.side` is Selenium IDE's
 * by name too); undefined for anything else, which `aqa test` reads as it always has.
 */
export function recordingKind(file: string): keyof typeof RECORDERS | undefined {
  const ext = extname(file).toLowerCase();
  if (!['.side', '.json', '.js', '.mjs', '.cjs', '.ts'].includes(ext)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (ext === '.side') return 'selenium-ide';
  if (ext !== '.json') return looksLikePlaywright(text) ? 'playwright' : undefined;
  try {
    return recordingFormatOf(JSON.parse(text.replace(/^\uFEFF/, '')));
  } catch {
    return undefined;
  }
}

/** The part of parse-file's answer this command reads: the UI plan and what was read. */
const ParsedRecordingSchema = z.object({
  format: z.string(),
  plan: FunctionalPlanSchema,
  recording: z.object({ tests: z.number(), actions: z.number(), skipped: z.number() }),
});

const SavedPlansSchema = z.array(
  z.object({ id: z.string(), test_name: z.string(), test_type: z.string().optional() }),
);

export interface RecordingTestRequest {
  file: string;
  baseUrl: string | undefined;
  junit?: string | undefined;
  json?: string | undefined;
  html?: string | undefined;
  quiet: boolean;
}

/** One recorded test as the terminal shows it: ✓/✗, its name, its time; then each command by its name. */
export function recordedTestLines(call: CallResult, severalPasses: boolean): string {
  const name = severalPasses ? `${call.api_name} (iteration ${call.iteration ?? 1})` : call.api_name;
  const lines = [`${call.success ? '✓' : '✗'} ${name}  ${msText(call.response_time)}`];
  for (const action of call.ui?.actions ?? []) {
    const where = action.at ?? (action.line === undefined ? '' : `line ${action.line}`);
    lines.push(`    ${action.passed ? '✓' : '✗'} ${where === '' ? '' : `${where} `}\`${action.action}\``);
    if (!action.passed) lines.push(`        ${action.message}`);
  }
  const failedAction = (call.ui?.actions ?? []).some((a) => !a.passed);
  if (!call.success && !failedAction && call.error !== null && call.error !== undefined)
    lines.push(`    ${call.error}`);
  return `${lines.join('\n')}\n`;
}

/** Saves the plan as the user's UI plan of its name: that plan updated, else a new one. Answers its id. */
async function savePlan(
  client: RemoteClient,
  plan: FunctionalPlan,
): Promise<{ id: string; updated: boolean }> {
  const saved = await client.read(SavedPlansSchema, contract.functional.list, {});
  const same = saved.find((p) => p.test_name === plan.test_name && p.test_type === 'ui');
  if (same !== undefined) {
    await client.call(contract.functional.update, { params: { id: same.id }, body: plan });
    return { id: same.id, updated: true };
  }
  const created = await client.call(contract.functional.save, { body: plan });
  return { id: created.id, updated: false };
}

export async function recordingTest(target: RemoteTarget, request: RecordingTestRequest): Promise<number> {
  const client = new RemoteClient(target);
  const form = new FormData();
  form.append('file', new Blob([readFileSync(request.file)]), basename(request.file));
  if (request.baseUrl !== undefined) form.append('base_url', request.baseUrl);
  const response = await client.send('POST', contract.imports.functionalFile.url, form);
  const parsed = ParsedRecordingSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success)
    throw new RemoteError(
      `the server did not read ${request.file} as a browser recording (${parsed.error.issues[0]?.message ?? 'unknown'})`,
    );
  const { plan, recording } = parsed.data;
  const { id, updated } = await savePlan(client, plan);
  out(
    `${request.file}: ${recording.tests} recorded test(s), ${recording.actions} action(s)${recording.skipped > 0 ? `, ${recording.skipped} commented-out skipped` : ''}; ${updated ? 'updated' : 'saved'} the UI plan "${plan.test_name}" (${id})\n`,
  );
  const started = await client.call(contract.functional.runTest, { body: { ...plan, plan_id: id } });
  const testId = started.test_id;
  out(`Result: ${client.server}/functional-test-result/${encodeURIComponent(testId)}\n`);
  return followRun(client, testId, {
    ...request,
    stopping: '\naqa test: stopping the run on the server (Ctrl-C again to quit now)\n',
    running: "running in the server's browser…",
    lines: (call) => recordedTestLines(call, plan.iterations > 1),
  });
}

/** `aqa test FILE …` for a recording: reads the arguments, runs on the server, says any failure in words. */
export function recordingTestCommand(argv: string[], kind: keyof typeof RECORDERS): Promise<number> {
  return remoteTestCommandWith(
    argv,
    { 'base-url': { type: 'string' } },
    async ({ values: v, positionals }) => {
      const [file, ...extra] = positionals;
      if (file === undefined) throw new RemoteError('aqa test needs the recording file');
      if (extra.length > 0) throw new RemoteError(`unexpected arguments: ${extra.join(' ')}`);
      if ((v.server ?? process.env[SERVER_ENV] ?? '').trim() === '')
        throw new RemoteError(
          `${file} is ${RECORDERS[kind]}, a UI test: it runs in a browser, which this command line does not have. Run it on an AnybodyQA server: aqa test ${file} --server URL --token T (or set ${SERVER_ENV} and AQA_TOKEN)`,
        );
      return recordingTest(remoteTarget(v, process.env, `${file} runs on a server`), {
        file,
        baseUrl: v['base-url']?.trim() || undefined,
        junit: v.junit,
        json: v.json,
        html: v.html,
        quiet: v.quiet,
      });
    },
  );
}
