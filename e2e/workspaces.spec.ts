import { expect, test, type APIRequestContext } from '@playwright/test';
import { confirmWith, expectNotice, newAccount, signIn, watchMessages } from './helpers';

/*
 * Workspaces and roles (docs/adr/0035-workspaces-and-roles.md): an owner makes a team workspace, saves a
 * plan in it and adds another account as a viewer. The viewer switches to it in the sidebar, sees the
 * owner's plan with no Run, Delete or Save, keeps the workspace across a reload, and the server itself
 * refuses the viewer a save with 403 WORKSPACE_ROLE. Every call names the workspace with X-Workspace-Id.
 */

async function registerAndLogin(request: APIRequestContext, label: string) {
  const account = newAccount(label);
  const registered = await request.post('/api/register', {
    data: {
      email: account.email,
      password: account.password,
      confirmPassword: account.password,
      firstName: account.firstName,
      lastName: account.lastName,
      company: account.company,
      role: account.role,
    },
  });
  expect(registered.status(), await registered.text()).toBeLessThan(300);
  const login = await request.post('/api/login', {
    data: { username: account.email, password: account.password },
  });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  return { account, auth: { Authorization: `Bearer ${token}` } };
}

function planBody(name: string) {
  return {
    name,
    tool: 'k6',
    concurrent_users: 1,
    duration: 1,
    urls: [{ name: 'Home', method: 'GET', url: 'http://127.0.0.1:9/' }],
  };
}

test('an owner shares a team workspace with a viewer, who reads its plan but may not run or save it', async ({
  page,
  request,
}) => {
  const messages = watchMessages(page);
  const owner = await registerAndLogin(request, 'ws-owner');
  const viewer = await registerAndLogin(request, 'ws-viewer');
  const teamName = `Checkout team ${Date.now()}`;
  const planName = `Team checkout plan ${Date.now()}`;

  const made = await request.post('/api/workspaces', {
    headers: owner.auth,
    data: { name: teamName, timezone: 'Asia/Seoul' },
  });
  expect(made.status(), await made.text()).toBe(201);
  const team = (await made.json()) as { id: string; role: string; personal: boolean };
  expect(team).toMatchObject({ role: 'owner', personal: false });
  const inTeam = (auth: Record<string, string>) => ({ ...auth, 'X-Workspace-Id': team.id });

  const saved = await request.post('/api/save-test-plan', {
    headers: inTeam(owner.auth),
    data: planBody(planName),
  });
  expect(saved.status(), await saved.text()).toBe(201);

  const added = await request.post(`/api/workspaces/${team.id}/members`, {
    headers: owner.auth,
    data: { email: viewer.account.email, role: 'viewer' },
  });
  expect(added.status(), await added.text()).toBe(201);
  const { members } = (await added.json()) as { members: { email: string; role: string }[] };
  expect(members.find((member) => member.email === viewer.account.email)?.role).toBe('viewer');

  // The plan is the team's: not in the viewer's personal workspace.
  const personalPlans = await request.get('/api/get-test-plans', { headers: viewer.auth });
  expect(JSON.stringify(await personalPlans.json())).not.toContain(planName);

  await signIn(page, viewer.account.email, viewer.account.password);
  const switcher = page.getByTestId('workspace-switcher');
  await expect(switcher.getByTestId('workspace-current-name')).toHaveText('Personal');
  await expect(page.getByTestId('saved-plans')).not.toContainText(planName);

  await switcher.getByTestId('workspace-switcher-toggle').click();
  const option = switcher.getByTestId('workspace-option').filter({ hasText: teamName });
  await expect(option).toContainText('Viewer');
  await option.click();
  await expectNotice(messages, `Now working in ${teamName}`);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(switcher.getByTestId('workspace-current-name')).toHaveText(teamName);
  await expect(switcher.getByTestId('workspace-current-role')).toHaveText('Viewer');

  // The owner's plan is there; nothing that would change it is offered, and the screen says why.
  await expect(page.getByTestId('saved-plan').filter({ hasText: planName })).toBeVisible();
  await expect(page.getByTestId('viewer-notice')).toContainText(`You are a viewer in "${teamName}"`);
  await expect(page.getByTestId('nav-performance-input-urls')).toHaveAttribute('aria-disabled', 'true');

  // A reload keeps the workspace.
  await page.goto('/performance-dashboard');
  await expect(switcher.getByTestId('workspace-current-name')).toHaveText(teamName);
  const card = page.getByTestId('plan-card').filter({ hasText: planName });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('plan-run')).toHaveCount(0);
  await expect(card.getByTestId('plan-delete')).toHaveCount(0);

  // Opened, the plan reads: no Run, Save disabled with the reason.
  await card.getByTestId('edit-plan').click();
  await expect(page.getByTestId('plan-name')).toHaveValue(planName);
  await expect(page.getByTestId('run-script')).toHaveCount(0);
  await expect(page.getByTestId('save-plan')).toBeDisabled();
  await expect(page.getByTestId('save-plan')).toHaveAttribute(
    'title',
    'Viewers read results; ask an owner for the editor role',
  );

  // Reading a file into an editor is an editor's call too: the import buttons say why not.
  for (const [path, button] of [
    ['/functional-test/url-input', 'import-apis'],
    ['/functional-test/ui-url-input', 'import-recording'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByTestId(button)).toBeDisabled();
    await expect(page.getByTestId(button)).toHaveAttribute(
      'title',
      'Viewers read results; ask an owner for the editor role',
    );
  }

  // The server is the guard: a viewer's save in the team workspace is refused in words.
  const refused = await request.post('/api/save-test-plan', {
    headers: inTeam(viewer.auth),
    data: planBody('Not allowed'),
  });
  expect(refused.status(), await refused.text()).toBe(403);
  const refusal = (await refused.json()) as { code: string; detail: string };
  expect(refusal.code).toBe('WORKSPACE_ROLE');
  expect(refusal.detail.length).toBeGreaterThan(0);

  // Back to the personal workspace: the team's plan is gone from the screen.
  await switcher.getByTestId('workspace-switcher-toggle').click();
  await switcher.getByTestId('workspace-option').filter({ hasText: 'Personal' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(switcher.getByTestId('workspace-current-name')).toHaveText('Personal');
  await expect(page.getByTestId('saved-plans')).not.toContainText(planName);
});

test('an owner makes a team workspace in the app, adds a member by address (an unknown one is said in words), changes the role and deletes the workspace', async ({
  page,
  request,
}) => {
  const messages = watchMessages(page);
  const owner = await registerAndLogin(request, 'ws-ui-owner');
  const member = await registerAndLogin(request, 'ws-ui-member');
  const teamName = `Payments ${Date.now()}`;
  await signIn(page, owner.account.email, owner.account.password);

  const switcher = page.getByTestId('workspace-switcher');
  await switcher.getByTestId('workspace-switcher-toggle').click();
  await switcher.getByTestId('workspace-new').click();
  await expect(page).toHaveURL(/\/workspace\?new=1$/);
  await page.getByTestId('workspace-create-name').fill(teamName);
  await page.getByTestId('workspace-create-timezone').selectOption('Asia/Seoul');
  await page.getByTestId('workspace-create-submit').click();
  await expectNotice(messages, `Workspace "${teamName}" made; you are working in it now`);
  await expect(switcher.getByTestId('workspace-current-name')).toHaveText(teamName);
  await expect(switcher.getByTestId('workspace-current-role')).toHaveText('Owner');
  await expect(page.getByTestId('workspace-timezone')).toHaveValue('Asia/Seoul');

  const table = page.getByTestId('workspace-members-table');
  await expect(table.getByTestId('workspace-member-row')).toHaveCount(1);
  await page.getByTestId('workspace-member-email').fill(`nobody-${Date.now()}@example.com`);
  await page.getByTestId('workspace-member-add').click();
  await expect(page.getByTestId('workspace-member-email-error')).toHaveText(
    'No account has this email address: ask them to register first',
  );

  await page.getByTestId('workspace-member-email').fill(member.account.email);
  await page.getByTestId('workspace-member-role').selectOption('viewer');
  await page.getByTestId('workspace-member-add').click();
  await expectNotice(messages, `${member.account.email} added as Viewer`);
  const memberRow = table.getByTestId('workspace-member-row').filter({ hasText: member.account.email });
  await expect(memberRow.getByTestId('workspace-member-role-select')).toHaveValue('viewer');
  await memberRow.getByTestId('workspace-member-role-select').selectOption('editor');
  await expectNotice(messages, `${member.account.email} is now Editor`);

  // The member's list says so too.
  const theirs = await request.get('/api/workspaces', { headers: member.auth });
  const listed = (await theirs.json()) as { workspaces: { name: string; role: string }[] };
  expect(listed.workspaces.find((workspace) => workspace.name === teamName)?.role).toBe('editor');

  await page.getByTestId('workspace-delete').click();
  await confirmWith(
    page,
    `Delete "${teamName}" with all its plans, runs, schedules and channels, for every member?`,
    'Delete workspace',
  );
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(switcher.getByTestId('workspace-current-name')).toHaveText('Personal');
  await switcher.getByTestId('workspace-switcher-toggle').click();
  await expect(switcher.getByTestId('workspace-option')).toHaveCount(1);
});

test('an owner makes an invite link; a signed-out newcomer opens it, signs in, comes back to it and joins as its role', async ({
  browser,
  page,
  request,
}) => {
  const owner = await registerAndLogin(request, 'ws-inv-owner');
  const newcomer = await registerAndLogin(request, 'ws-inv-new');
  const teamName = `Invited team ${Date.now()}`;
  const made = await request.post('/api/workspaces', { headers: owner.auth, data: { name: teamName } });
  const team = (await made.json()) as { id: string };

  await signIn(page, owner.account.email, owner.account.password);
  await page.goto(`/workspace?workspace_id=${team.id}`);
  await expect(page.getByTestId('workspace-current-name')).toHaveText(teamName);
  await page.getByTestId('workspace-invite-role').selectOption('editor');
  await page.getByTestId('workspace-invite-make').click();
  const link = await page.getByTestId('workspace-invite-url').inputValue();
  expect(link).toMatch(/\/invite\/[\w-]+$/);
  await expect(page.getByTestId('workspace-invite-list')).toContainText('As Editor');

  // The newcomer, signed out in another browser, opens the link: signs in and lands back on it.
  const context = await browser.newContext();
  const theirs = await context.newPage();
  await theirs.goto(new URL(link).pathname);
  await expect(theirs).toHaveURL(/\/login$/);
  await theirs.getByTestId('login-username').fill(newcomer.account.email);
  await theirs.getByTestId('login-password').fill(newcomer.account.password);
  await theirs.getByTestId('login-submit').click();
  await expect(theirs).toHaveURL(/\/invite\//);
  await expect(theirs.getByTestId('invite-workspace')).toHaveText(teamName);
  await theirs.getByTestId('invite-join').click();
  await expect(theirs).toHaveURL(/\/dashboard$/);
  await expect(theirs.getByTestId('workspace-current-name')).toHaveText(teamName);
  await expect(theirs.getByTestId('workspace-current-role')).toHaveText('Editor');

  // Used once: opened again, it says so in words.
  await theirs.goto(new URL(link).pathname);
  await expect(theirs.getByTestId('invite-error')).toContainText(
    'This invite link is not valid: it was used, withdrawn or mistyped',
  );
  await context.close();
});
