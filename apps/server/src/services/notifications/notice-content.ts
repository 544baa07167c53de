import type { DeliveryEvent, NotificationChannelType, NotificationEvent } from '@aqa/contract';

/*
 * What a notice says and how each receiver wants it written (docs/adr/0032-notifications-out.md §3):
 * the generic webhook's JSON, Slack's incoming-webhook message (`text` and blocks), a Microsoft Teams
 * webhook's message carrying an Adaptive Card, and an e-mail's subject and text. Pure: a notice in,
 * the exact body to store in the outbox out.
 */

/** An ended run as a notice tells it. */
export interface NoticeRun {
  id: string;
  /** load | api | script | ui */
  kind: string;
  plan_id: string | null;
  plan_name: string;
  status: string;
  /** The measured summary as stored (a load run's or a functional run's), or null. */
  summary: unknown;
  /** The run's message body: its figures in one line. */
  summary_text: string;
  started_at: string;
  ended_at: string | null;
  url: string;
}

export interface Notice {
  event: DeliveryEvent;
  /** Every event the run gave (a functional run with failed validations is run_failed and threshold_failed). */
  events: NotificationEvent[];
  title: string;
  text: string;
  /** The page to open: the run's result, or the Notifications screen for a test. */
  url: string;
  run: NoticeRun | null;
  created_at: string;
}

/** What the e-mail channel stores and sends. */
export interface EmailBody {
  subject: string;
  text: string;
}

/** Slack's mrkdwn reads &, < and > as markup (https://api.slack.com/reference/surfaces/formatting#escaping). */
function slackEscape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function runLine(run: NoticeRun): string {
  const ended = run.ended_at === null ? '' : ` · ended ${run.ended_at}`;
  return `${run.kind} test · ${run.status} · started ${run.started_at}${ended}`;
}

function slackBody(notice: Notice): object {
  const context = notice.run === null ? 'AnybodyQA' : runLine(notice.run);
  return {
    text: `${slackEscape(notice.title)}: ${slackEscape(notice.text)} <${notice.url}|Open>`,
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `*${slackEscape(notice.title)}*\n${slackEscape(notice.text)}` },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: slackEscape(context) }] },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: notice.run === null ? 'Open AnybodyQA' : 'Open the result' },
            url: notice.url,
          },
        ],
      },
    ],
  };
}

/**
 * A Teams webhook (a Workflows "post to a channel when a webhook request is received" flow, or a
 * classic incoming webhook) takes a message whose attachment is an Adaptive Card.
 */
function teamsBody(notice: Notice): object {
  const facts =
    notice.run === null
      ? []
      : [
          { title: 'Kind', value: notice.run.kind },
          { title: 'Status', value: notice.run.status },
          { title: 'Started', value: notice.run.started_at },
          ...(notice.run.ended_at === null ? [] : [{ title: 'Ended', value: notice.run.ended_at }]),
        ];
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: notice.title, weight: 'Bolder', size: 'Medium', wrap: true },
            { type: 'TextBlock', text: notice.text, wrap: true },
            ...(facts.length === 0 ? [] : [{ type: 'FactSet', facts }]),
          ],
          actions: [
            {
              type: 'Action.OpenUrl',
              title: notice.run === null ? 'Open AnybodyQA' : 'Open the result',
              url: notice.url,
            },
          ],
        },
      },
    ],
  };
}

function emailBody(notice: Notice): EmailBody {
  const lines = [notice.text, ''];
  if (notice.run !== null) lines.push(runLine(notice.run), '');
  lines.push(notice.url);
  return { subject: notice.title, text: lines.join('\n') };
}

/** The exact body a channel of this type is sent (stored in the outbox before the first attempt). */
export function bodyFor(type: NotificationChannelType, notice: Notice): string {
  switch (type) {
    case 'webhook':
      return JSON.stringify(notice);
    case 'slack':
      return JSON.stringify(slackBody(notice));
    case 'teams':
      return JSON.stringify(teamsBody(notice));
    case 'email':
      return JSON.stringify(emailBody(notice));
  }
}
