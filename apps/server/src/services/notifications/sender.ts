import { createHmac } from 'node:crypto';
import { guardedConnector, TargetRefusedError, type TargetGuard } from '@aqa/engine';
import type { NotificationChannelType } from '@aqa/contract';
import { createTransport } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { Agent, request } from 'undici';
import type { EmailBody } from './notice-content';

/** The most of a receiver's answer the log keeps. */
export const ANSWER_CHARS = 500;
/** How long a receiver may take to answer (connect, headers, body). */
const TIMEOUT_MS = 10_000;

/** One attempt's outcome: sent, or not (and whether another attempt may help). */
export interface SendOutcome {
  ok: boolean;
  /** False when trying again cannot help: the guard refused the address, no SMTP is set. */
  retriable: boolean;
  httpStatus: number | null;
  answer: string;
}

export interface SmtpSettings {
  /** SMTP_URL: smtp://user:pass@host:port or smtps://…; absent: e-mail channels cannot send. */
  url?: string;
  /** SMTP_FROM: the sender's address. */
  from: string;
}

/** The channel as the sender needs it. */
export interface SendTarget {
  type: NotificationChannelType;
  url: string;
  secret: string | null;
}

/** The header a webhook's body is signed in: `sha256=` and the hex HMAC-SHA256 of the exact body. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

function excerpt(text: string): string {
  return text.length > ANSWER_CHARS ? `${text.slice(0, ANSWER_CHARS - 1)}…` : text;
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${typeof code === 'string' ? `${code} ` : ''}${err.message}${cause}`;
  }
  return String(err);
}

/**
 * Sends one stored body to a channel (docs/adr/0032-notifications-out.md §4). Web hooks go through the
 * target guard twice (docs/adr/0015-target-guard.md): the URL's host is decided before anything is sent,
 * and the connection is opened through the guard's connector, so a name re-pointed at a refused address
 * is refused too. No redirect is followed: a 3xx is the receiver's answer, and not a success.
 */
export class NotificationSender {
  private readonly agent: Agent;

  constructor(
    private readonly guard: TargetGuard,
    private readonly smtp: SmtpSettings,
  ) {
    this.agent = new Agent({ connect: guardedConnector(guard, { timeout: TIMEOUT_MS }) });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  send(target: SendTarget, body: string): Promise<SendOutcome> {
    return target.type === 'email' ? this.sendEmail(target.url, body) : this.post(target, body);
  }

  private async post(target: SendTarget, body: string): Promise<SendOutcome> {
    const decision = await this.guard.checkUrl(target.url);
    if (!decision.allowed) return { ok: false, retriable: false, httpStatus: null, answer: decision.reason };
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'AnybodyQA-Notifications',
    };
    if (target.type === 'webhook' && target.secret !== null)
      headers['x-aqa-signature'] = signature(target.secret, body);
    try {
      const answer = await request(target.url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
      const text = await readExcerpt(answer.body);
      const ok = answer.statusCode >= 200 && answer.statusCode < 300;
      return { ok, retriable: !ok, httpStatus: answer.statusCode, answer: text };
    } catch (err) {
      const refused =
        err instanceof TargetRefusedError || (err as { cause?: unknown }).cause instanceof TargetRefusedError;
      return { ok: false, retriable: !refused, httpStatus: null, answer: excerpt(errorText(err)) };
    }
  }

  private async sendEmail(to: string, body: string): Promise<SendOutcome> {
    if (this.smtp.url === undefined) {
      return { ok: false, retriable: false, httpStatus: null, answer: 'SMTP_URL is not set on this server' };
    }
    const { subject, text } = JSON.parse(body) as EmailBody;
    const options: SMTPTransport.Options = {
      url: this.smtp.url,
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    };
    const transport = createTransport(options);
    try {
      const info = await transport.sendMail({ from: this.smtp.from, to, subject, text });
      return { ok: true, retriable: false, httpStatus: null, answer: excerpt(String(info.response)) };
    } catch (err) {
      return { ok: false, retriable: true, httpStatus: null, answer: excerpt(errorText(err)) };
    } finally {
      transport.close();
    }
  }
}

/** Reads at most ANSWER_CHARS of an answer's body as text and drops the rest. */
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= ANSWER_CHARS * 4) {
      body.destroy();
      break;
    }
  }
  return excerpt(Buffer.concat(chunks).toString('utf8'));
}
