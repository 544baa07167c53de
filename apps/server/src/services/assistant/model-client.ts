import type { AssistantModelSettings } from '../../config';

/*
 * The optional language model (docs/design.md §10): any server that speaks OpenAI's chat completions
 * (POST {base}/chat/completions). It is asked only when the analyser did not understand a question,
 * and only when AQA_LLM_BASE_URL and AQA_LLM_MODEL are set.
 */

/** How long James waits for the model. */
export const MODEL_TIMEOUT_MS = 30_000;

export type ModelReply = { ok: true; text: string } | { ok: false; problem: string };

export interface ChatModel {
  /** The model's name (AQA_LLM_MODEL), shown with its answers. */
  readonly name: string;
  /** Where the model is, for messages. */
  readonly where: string;
  ask(system: string, user: string): Promise<ModelReply>;
}

interface ChatCompletion {
  choices?: { message?: { content?: unknown } }[];
}

export class OpenAiCompatibleModel implements ChatModel {
  readonly name: string;
  readonly where: string;

  constructor(
    private readonly settings: AssistantModelSettings,
    private readonly timeoutMs = MODEL_TIMEOUT_MS,
  ) {
    this.name = settings.model;
    this.where = `${settings.model} at ${settings.baseUrl}`;
  }

  async ask(system: string, user: string): Promise<ModelReply> {
    let response: Response;
    try {
      response = await fetch(`${this.settings.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.settings.apiKey === undefined ? {} : { authorization: `Bearer ${this.settings.apiKey}` }),
        },
        body: JSON.stringify({
          model: this.settings.model,
          temperature: 0.2,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
        }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const cause = error instanceof Error ? error : new Error(String(error));
      if (cause.name === 'TimeoutError') {
        return { ok: false, problem: `it did not answer within ${Math.round(this.timeoutMs / 1000)} s` };
      }
      const reason = cause.cause instanceof Error ? cause.cause.message : cause.message;
      return { ok: false, problem: `it could not be reached (${reason})` };
    }
    const body = await response.text().catch(() => '');
    if (!response.ok) {
      return { ok: false, problem: `it answered HTTP ${response.status}: ${body.slice(0, 200).trim()}` };
    }
    let parsed: ChatCompletion;
    try {
      parsed = JSON.parse(body) as ChatCompletion;
    } catch {
      return { ok: false, problem: 'its answer was not JSON' };
    }
    const text = parsed.choices?.[0]?.message?.content;
    if (typeof text !== 'string' || text.trim() === '') {
      return { ok: false, problem: 'its answer held no text (choices[0].message.content)' };
    }
    return { ok: true, text: text.trim() };
  }
}
