import type { Finding } from '@aqa/plan';
import type { AssistantData } from './data';
import type { PlanRef } from './plan-match';
import type { Lang } from './text';

/* What the model is told (docs/design.md §10): James's role, the analyser's findings and run summaries. */

/** Runs of each kind the model is shown. */
const RUNS_IN_CONTEXT = 10;

export function systemPrompt(lang: Lang): string {
  return [
    'You are James, the performance-testing assistant of AnybodyQA, a platform for load and functional API tests.',
    "Answer the user's question about their own tests from the data given below: the findings of James's analyser and the summaries of their recent runs.",
    'Use only these figures; when the data does not hold the answer, say so plainly. Never invent a number.',
    'Times are in milliseconds, error rates in percent, throughput in requests per second.',
    lang === 'ko' ? 'Answer in Korean.' : 'Answer in English.',
    'Be brief: a few sentences.',
  ].join(' ');
}

/** The user's message: the data as JSON, then the question. */
export function userMessage(
  data: AssistantData,
  findings: Finding[],
  plan: PlanRef | null,
  question: string,
): string {
  const context = {
    plan_in_question: plan === null ? null : { kind: plan.kind, name: plan.name },
    findings: findings.map(({ kind, severity, title, detail, figures }) => ({
      kind,
      severity,
      title,
      detail,
      figures,
    })),
    recent_load_runs: data.perfRuns.slice(0, RUNS_IN_CONTEXT).map((run) => ({
      plan: run.planName,
      name: run.name,
      status: run.status,
      started_at: run.startedAt,
      users: run.users,
      summary: run.summary,
      apis: run.apis.map((api) => ({
        name: api.name || api.label,
        method: api.method,
        requests: api.total_requests,
        failed: api.failed_requests,
        average_ms: api.average_response_time,
        p95_ms: api.percentile_95,
      })),
    })),
    recent_functional_runs: data.functionalRuns.slice(0, RUNS_IN_CONTEXT).map((run) => ({
      name: run.name,
      status: run.status,
      started_at: run.startedAt,
      summary: run.summary,
      apis: run.apis.map((api) => ({
        name: api.name,
        status: api.status,
        response_time_ms: api.response_time,
      })),
    })),
  };
  return `Data:\n${JSON.stringify(context)}\n\nQuestion: ${question}`;
}
