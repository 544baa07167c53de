import { describeIssues, safeMigratePlan, type PerfPlan, type PerfPlanInput } from '@aqa/plan';
import { PlanCompileError } from '../executor/compile';
import type { RunSnapshot } from '../types';
import type { DriverResult } from './driver';
import { JtlReader } from './jtl';
import { K6JsonReader, parseK6Time, type K6ReaderOptions } from './k6';
import { parseLocustFailures } from './locust-output';
import { LocustResults } from './locust-results';
import { SampleAggregator } from './samples';
import { StepMatcher, stepInfos } from './steps';
import { TOOL_NAMES, type ExternalTool, type ToolRunResult } from './types';

/**
 * Readers of the tools' result files after the fact (a finished run's files, or fixtures): the same
 * snapshots and result as a live run of the tool would give.
 */

export interface ReadResultsOptions {
  /** Users the run had (default: the plan's). */
  users?: number;
  onSnapshot?: (s: RunSnapshot) => void;
}

export interface ReadResults {
  snapshots: RunSnapshot[];
  result: ToolRunResult;
}

function planOf(input: PerfPlan | PerfPlanInput): PerfPlan {
  const parsed = safeMigratePlan(input);
  if (!parsed.success) {
    throw new PlanCompileError(
      describeIssues(parsed.error).map((i) => `${i.field || '(plan)'}: ${i.message}`),
    );
  }
  return parsed.data;
}

function finish(
  tool: ExternalTool,
  parts: DriverResult,
  info: { exact: boolean; source: string; notes: string[] },
  snapshots: RunSnapshot[],
): ReadResults {
  return {
    snapshots,
    result: {
      status: 'completed',
      ...parts,
      tool,
      toolName: TOOL_NAMES[tool],
      command: '',
      exact: info.exact,
      source: info.source,
      notes: info.notes,
      exitCode: null,
    },
  };
}

function setup(input: PerfPlan | PerfPlanInput, options: ReadResultsOptions) {
  const plan = planOf(input);
  const snapshots: RunSnapshot[] = [];
  const emit = (s: RunSnapshot): void => {
    snapshots.push(s);
    options.onSnapshot?.(s);
  };
  const users = options.users ?? plan.concurrent_users;
  return { plan, snapshots, emit, users, matcher: new StepMatcher(plan), steps: stepInfos(plan) };
}

function readJtl(
  tool: 'jmeter' | 'taurus',
  input: PerfPlan | PerfPlanInput,
  text: string,
  options: ReadResultsOptions,
): ReadResults {
  const { snapshots, emit, users, matcher, steps } = setup(input, options);
  const reader = new JtlReader(matcher);
  const samples = [...reader.feed(text), ...reader.end()];
  const agg = new SampleAggregator(steps, emit, { users, wholeMilliseconds: true });
  if (samples.length > 0) agg.setOrigin(Math.min(...samples.map((s) => s.startMs)));
  for (const s of samples) agg.add(s);
  agg.finish();
  const notes: string[] = [];
  if (!reader.fields.includes('sentBytes')) notes.push('The JTL has no sentBytes column: bytes_sent is 0.');
  if (reader.badRows > 0) notes.push(`${reader.badRows} JTL rows could not be read and are left out.`);
  return finish(
    tool,
    agg.result(),
    { exact: true, source: tool === 'jmeter' ? 'jmeter jtl' : 'taurus kpi.jtl', notes },
    snapshots,
  );
}

/** A JMeter CSV JTL (with field names). */
export function readJmeterJtl(
  plan: PerfPlan | PerfPlanInput,
  text: string,
  options: ReadResultsOptions = {},
): ReadResults {
  return readJtl('jmeter', plan, text, options);
}

/** Taurus's kpi.jtl (a JMeter CSV JTL with field names). */
export function readTaurusKpi(
  plan: PerfPlan | PerfPlanInput,
  text: string,
  options: ReadResultsOptions = {},
): ReadResults {
  return readJtl('taurus', plan, text, options);
}

/** k6's `--out json` output. */
export function readK6Json(
  plan: PerfPlan | PerfPlanInput,
  text: string,
  options: ReadResultsOptions & K6ReaderOptions = {},
): ReadResults {
  const { snapshots, emit, users, matcher, steps } = setup(plan, options);
  const agg = new SampleAggregator(steps, emit, { users });
  // Second 1 starts with the first request: find it before bucketing.
  let first = Infinity;
  for (const line of text.split('\n')) {
    if (!line.includes('"http_req_duration"') || !line.includes('"Point"')) continue;
    try {
      const o = JSON.parse(line) as {
        data?: { time?: string; value?: number; tags?: Record<string, string> | null };
      };
      if (matcher.match(o.data?.tags?.name ?? '') < 0) continue;
      const end = parseK6Time(o.data?.time ?? '');
      if (Number.isFinite(end)) first = Math.min(first, end - Number(o.data?.value ?? 0));
    } catch {
      // counted by the reader
    }
  }
  if (Number.isFinite(first)) agg.setOrigin(Math.floor(first));
  const reader = new K6JsonReader(matcher, agg, options);
  reader.feed(text);
  reader.end();
  agg.finish();
  const notes = [
    "k6's http_req_duration is sending + waiting + receiving: it leaves out DNS lookup and connecting.",
    'k6 reports sent and received bytes for the whole run only: per-API bytes are 0.',
  ];
  if (reader.badLines > 0) notes.push(`${reader.badLines} lines of the k6 JSON output could not be read.`);
  return finish(
    'k6',
    { ...agg.result(), checks: { ...reader.checks } },
    { exact: true, source: 'k6 json output', notes },
    snapshots,
  );
}

/** Locust's CSV files (`--csv PREFIX --csv-full-history`), plus the final JSON our wrapper writes. */
export function readLocustCsv(
  plan: PerfPlan | PerfPlanInput,
  files: { history: string; stats: string; failures?: string; finalJson?: string },
  options: ReadResultsOptions = {},
): ReadResults {
  const { snapshots, emit, users, matcher, steps } = setup(plan, options);
  const results = new LocustResults({ steps, matcher, users, emit });
  const failures = files.failures ?? '';
  results.feedHistory(files.history, () => parseLocustFailures(failures, matcher));
  let json: Parameters<LocustResults['finish']>[0];
  try {
    json = files.finalJson ? (JSON.parse(files.finalJson) as typeof json) : undefined;
  } catch {
    json = undefined;
  }
  const { notes, ...parts } = results.finish(json, files.stats, failures);
  return finish(
    'locust',
    parts,
    {
      exact: false,
      source: 'locust stats history',
      notes: [
        "Locust keeps no raw samples: response-time percentiles are Locust's own.",
        'Locust does not record sent bytes: bytes_sent is 0.',
        ...notes,
      ],
    },
    snapshots,
  );
}
