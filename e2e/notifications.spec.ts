import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import {
  confirmWith,
  expectNotice,
  newAccount,
  register,
  screenshot,
  signIn,
  watchMessages,
} from './helpers';

/*
 * Settings → Notifications (docs/adr/0032-notifications-out.md): a webhook channel added in the screen
 * is sent a signed test notice by the real server, and its delivery log shows the receiver's answer.
 */
test('a user adds a webhook channel, sends a signed test, reads its log, and deletes it', async ({
  page,
}) => {
  const secret = 'e2e-webhook-secret-long-enough';
  const received: { body: string; signature: string | undefined }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const header = req.headers['x-aqa-signature'];
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: typeof header === 'string' ? header : undefined,
      });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  try {
    const messages = watchMessages(page);
    const account = newAccount('notify');
    await register(page, account);
    await signIn(page, account.email, account.password);

    await page.getByTestId('nav-notifications').click();
    await expect(page.getByTestId('channel-list-empty')).toBeVisible();
    await page.getByTestId('channel-url-input').fill(`${origin}/aqa`);
    await page.getByTestId('channel-name-input').fill('Team hook');
    await page.getByTestId('channel-secret-input').fill(secret);
    await page.getByTestId('channel-event-recovered').check();
    await page.getByTestId('channel-add').click();
    await expectNotice(messages, 'Channel "Team hook" added');

    const row = page.getByTestId('channel-row');
    await expect(row.getByTestId('channel-type')).toHaveText('Webhook');
    await expect(row.getByTestId('channel-last')).toContainText('Nothing sent yet');
    await row.getByTestId('channel-test').click();
    await expect.poll(() => received.length).toBe(1);
    const [got] = received;
    expect(got?.signature).toBe(
      `sha256=${createHmac('sha256', secret)
        .update(got?.body ?? '')
        .digest('hex')}`,
    );
    expect(JSON.parse(got?.body ?? '{}')).toMatchObject({ event: 'test' });

    await row.getByTestId('channel-log-toggle').click();
    await expect(row.getByTestId('delivery-status')).toHaveText('Sent');
    await expect(row.getByTestId('delivery-attempt')).toHaveText('Attempt 1 · HTTP 200 · thanks');
    await expect(row.getByTestId('channel-last-status')).toHaveText('Sent');
    await screenshot(page, 'settings-notifications');

    await row.getByTestId('channel-delete').click();
    await confirmWith(
      page,
      'Delete the channel "Team hook"? Its log goes too, and no plan tells it any more.',
      'Delete',
    );
    await expect(page.getByTestId('channel-list-empty')).toBeVisible();
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
