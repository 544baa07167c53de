import { type AssistantLink, TEST_KINDS } from '@aqa/plan';
import type { FunctionalPlanView, FunctionalRunView, PerfPlanView, PerfRunView } from './data';

/* Paths of the web app's screens (docs/reference/02-running.md §2) that James's answers link to. */

export function perfPlanLink(plan: Pick<PerfPlanView, 'id' | 'name' | 'sourcePage'>): AssistantLink {
  const page = plan.sourcePage === 'script-input' ? 'script-input' : 'url-input';
  return { label: plan.name, href: `/create-test/${page}?planId=${encodeURIComponent(plan.id)}` };
}

export function functionalPlanLink(plan: Pick<FunctionalPlanView, 'id' | 'name' | 'kind'>): AssistantLink {
  const editor = TEST_KINDS[plan.kind].editorPath;
  return { label: plan.name, href: `${editor}?planId=${encodeURIComponent(plan.id)}` };
}

/** A run's default label: its name and when it started, to the minute. */
function runLabel(run: { name: string; startedAt: string }): string {
  return `${run.name} · ${run.startedAt.slice(0, 16).replace('T', ' ')}`;
}

export function perfRunLink(
  run: Pick<PerfRunView, 'id' | 'name' | 'startedAt'>,
  label?: string,
): AssistantLink {
  return {
    label: label ?? runLabel(run),
    href: `${TEST_KINDS.load.resultPath}${encodeURIComponent(run.id)}`,
  };
}

export function functionalRunLink(
  run: Pick<FunctionalRunView, 'id' | 'name' | 'startedAt'>,
  label?: string,
): AssistantLink {
  return {
    label: label ?? runLabel(run),
    href: `${TEST_KINDS.api.resultPath}${encodeURIComponent(run.id)}`,
  };
}

/** The comparison screen with two runs side by side. */
export function compareLink(base: { id: string }, candidate: { id: string }, label: string): AssistantLink {
  const query = new URLSearchParams({ base: base.id, candidate: candidate.id });
  return { label, href: `/compare-results?${query.toString()}` };
}
