import { randomUUID } from 'node:crypto';
import {
  ASSISTANT_CONVERSATION_CAP,
  type AskAnswer,
  type AskRequest,
  type Conversation,
  type ConversationCleared,
  type Review,
} from '@aqa/plan';
import { type Clock, isoAt } from '../../clock';
import { NotFoundError } from '../../errors';
import type { AssistantRepository } from '../../repositories/assistant.repository';
import type { AccountUser } from '../account-user';
import {
  compareRunsAnswer,
  functionalCompareAnswer,
  functionalStatusAnswer,
  glossaryAnswer,
  mostFailingAnswer,
  noRunsAnswer,
  perfStatusAnswer,
  reviewAnswer,
  slowestAnswer,
  suggestionsFor,
} from './answers';
import { type AssistantData, isMeasuredRun, loadAssistantData } from './data';
import { intentOf } from './intents';
import type { ChatModel } from './model-client';
import { systemPrompt, userMessage } from './model-context';
import { matchPlan, type PlanRef } from './plan-match';
import { reviewFindings } from './review';
import { type Lang, languageOf, say } from './text';

export function assistantPlanNotFound(): NotFoundError {
  return new NotFoundError('PLAN_NOT_FOUND', 'Test plan not found');
}

/**
 * James (docs/design.md §10): Review saved plans and Ask James over the signed-in user's own plans and
 * runs, the optional model for what the analyser does not understand, and the conversation kept per user.
 */
export class AssistantService {
  constructor(
    private readonly repo: AssistantRepository,
    private readonly model: ChatModel | undefined,
    private readonly now: Clock,
  ) {}

  async review(user: AccountUser, lang: Lang = 'en'): Promise<Review> {
    const [data, ran] = await Promise.all([
      loadAssistantData(this.repo, user.workspaceId),
      this.repo.planIdsWithRuns(user.workspaceId),
    ]);
    return { findings: reviewFindings(data, ran, lang) };
  }

  /** Answers the question and keeps the turn; a plan_id that is not the user's is "not found". */
  async ask(user: AccountUser, request: AskRequest): Promise<AskAnswer> {
    const data = await loadAssistantData(this.repo, user.workspaceId);
    const requested = request.plan_id === undefined ? null : planById(data, request.plan_id);
    if (request.plan_id !== undefined && requested === null) throw assistantPlanNotFound();
    const lang = languageOf(request.question, request.language);
    const answer = await this.answer(user, data, request.question, requested, lang);
    await this.repo.addTurn(
      {
        id: randomUUID(),
        user_id: user.id,
        workspace_id: user.workspaceId,
        question: request.question,
        answer: JSON.stringify(answer),
        asked_at: isoAt(this.now()),
      },
      ASSISTANT_CONVERSATION_CAP,
    );
    return answer;
  }

  async conversation(user: AccountUser): Promise<Conversation> {
    const rows = await this.repo.turns(user.id, user.workspaceId);
    return {
      turns: rows.map((row) => ({
        id: row.id,
        question: row.question,
        answer: JSON.parse(row.answer) as AskAnswer,
        asked_at: row.asked_at,
      })),
    };
  }

  async clear(user: AccountUser): Promise<ConversationCleared> {
    return { deleted: await this.repo.clearTurns(user.id, user.workspaceId) };
  }

  private async answer(
    user: AccountUser,
    data: AssistantData,
    question: string,
    requested: PlanRef | null,
    lang: Lang,
  ): Promise<AskAnswer> {
    const intent = intentOf(question);
    const named = requested ?? matchPlan(question, data);
    switch (intent.kind) {
      case 'glossary':
        return glossaryAnswer(intent.term, lang);
      case 'review':
        return reviewAnswer((await this.review(user, lang)).findings, lang);
      case 'most_failing':
        return mostFailingAnswer(named === null ? data : runsOf(data, named), lang);
      case 'slowest':
        return slowestAnswer(named === null ? data : runsOf(data, named), lang);
      case 'why_slower':
      case 'compare': {
        const plan = named ?? newestRunPlan(data, 'load first');
        if (plan === null) return noRunsAnswer(lang);
        if (plan.kind === 'functional')
          return functionalCompareAnswer(data, functionalPlan(data, plan), lang);
        return compareRunsAnswer(data, perfPlan(data, plan), lang, intent.kind);
      }
      case 'plan_status': {
        const plan = named ?? newestRunPlan(data, 'newest');
        if (plan === null) return noRunsAnswer(lang);
        if (plan.kind === 'functional') return functionalStatusAnswer(data, functionalPlan(data, plan), lang);
        return perfStatusAnswer(data, perfPlan(data, plan), lang);
      }
      case 'unknown':
        return this.notUnderstood(user, data, question, named, lang);
    }
  }

  /** The model's answer when one is configured; else, or when it fails, what James can answer. */
  private async notUnderstood(
    user: AccountUser,
    data: AssistantData,
    question: string,
    plan: PlanRef | null,
    lang: Lang,
  ): Promise<AskAnswer> {
    const suggestions = suggestionsFor(data, lang);
    if (this.model === undefined) {
      return {
        answer: say(
          lang,
          'James did not understand that question, and no language model is set up on this server to answer it. James can answer these:',
          'James가 이 질문을 이해하지 못했고, 이 서버에는 대신 답할 언어 모델이 설정되어 있지 않습니다. James가 답할 수 있는 질문:',
        ),
        figures: [],
        links: [],
        source: 'analyser',
        understood: false,
        suggestions,
      };
    }
    const findings = (await this.review(user, lang)).findings;
    const reply = await this.model.ask(systemPrompt(lang), userMessage(data, findings, plan, question));
    if (!reply.ok) {
      return {
        answer: say(
          lang,
          `James did not understand that question, and the model (${this.model.where}) could not answer: ${reply.problem}. James can answer these:`,
          `James가 이 질문을 이해하지 못했고, 모델(${this.model.where})도 답하지 못했습니다: ${reply.problem}. James가 답할 수 있는 질문:`,
        ),
        figures: [],
        links: [],
        source: 'analyser',
        understood: false,
        suggestions,
      };
    }
    return {
      answer: reply.text,
      figures: [],
      links: [],
      source: 'model',
      understood: true,
      model: this.model.name,
    };
  }
}

function planById(data: AssistantData, id: string): PlanRef | null {
  const perf = data.perfPlans.find((plan) => plan.id === id);
  if (perf !== undefined) return { kind: 'perf', id, name: perf.name };
  const functional = data.functionalPlans.find((plan) => plan.id === id);
  if (functional !== undefined) return { kind: 'functional', id, name: functional.name };
  return null;
}

/** The data with only the runs of one plan ("which API of Checkout fails most?"). */
function runsOf(data: AssistantData, ref: PlanRef): AssistantData {
  return {
    ...data,
    perfRuns: ref.kind === 'perf' ? data.perfRuns.filter((run) => run.planId === ref.id) : [],
    functionalRuns:
      ref.kind === 'functional' ? data.functionalRuns.filter((run) => run.planId === ref.id) : [],
  };
}

function perfPlan(data: AssistantData, ref: PlanRef) {
  return data.perfPlans.find((plan) => plan.id === ref.id)!;
}

function functionalPlan(data: AssistantData, ref: PlanRef) {
  return data.functionalPlans.find((plan) => plan.id === ref.id)!;
}

/**
 * The plan of the user's newest run that still has its plan. Comparing runs ("why was my last run
 * slower?") reads the newest load run that measured requests, and a functional one only when there is
 * none; "how is it doing?" reads whichever run is newest.
 */
function newestRunPlan(data: AssistantData, order: 'load first' | 'newest'): PlanRef | null {
  const perfRun = data.perfRuns.find(
    (run) =>
      run.planId !== null &&
      (order === 'newest' || isMeasuredRun(run)) &&
      data.perfPlans.some((plan) => plan.id === run.planId),
  );
  const functionalRun = data.functionalRuns.find(
    (run) => run.planId !== null && data.functionalPlans.some((plan) => plan.id === run.planId),
  );
  const useFunctional =
    functionalRun !== undefined &&
    (perfRun === undefined || (order === 'newest' && functionalRun.startedAt > perfRun.startedAt));
  if (useFunctional) return planById(data, functionalRun.planId!);
  return perfRun === undefined ? null : planById(data, perfRun.planId!);
}
