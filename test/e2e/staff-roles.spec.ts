import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { root, startServerProcess, type ServerProcess } from '../support/server-process';
import { STAFF_PASSWORD } from '../support/staff-account';

/**
 * Staff roles through the browser (#33), against the real server: an owner invites a Finance member, who
 * accepts the e-mailed link, sees Orders but not Stores (a 403 page when typed), then is given Media and
 * deactivated (their next call ends in the sign-in form, saying so); the last owner cannot demote or
 * deactivate themselves. The file runs its own server so that its owner is the only one.
 */

const SHOTS = '/work/notes/shots';
const OWNER = 'owner-roles@example.com';
const INVITEE = 'finn-finance@example.com';
const INVITEE_PASSWORD = 'Ledger lines 2026 x';
const NO_ACCESS = "You don't have access to this page";
const LAST_OWNER = 'There must always be an active owner: make another member an owner first.';

let server: ServerProcess | undefined;

test.beforeAll(async () => {
  server = await startServerProcess();
  execFileSync(
    process.execPath,
    [
      join(root, 'api', 'dist', 'cli', 'admin.js'),
      'create',
      '--email',
      OWNER,
      '--password',
      STAFF_PASSWORD,
      '--first',
      'Olive',
      '--last',
      'Owner',
    ],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      stdio: 'pipe',
    },
  );
});

test.afterAll(async () => {
  await server?.stop();
});

/** The invitation link in the newest mail to `to`, read from the server's outbox. */
function inviteLinkTo(to: string): string {
  const db = new DatabaseSync(join(server!.dataDir, 'app.db'), { readOnly: true });
  try {
    const row = db
      .prepare('SELECT text_body FROM mail_outbox WHERE to_address = ? ORDER BY id DESC LIMIT 1')
      .get(to) as { text_body: string } | undefined;
    const link = row?.text_body.match(/https?:\/\/\S+\/staff\/invite#token=[A-Za-z0-9_-]+/)?.[0];
    if (!link) throw new Error(`No invitation link in the mail to ${to}: ${row?.text_body ?? 'no mail'}`);
    return link;
  } finally {
    db.close();
  }
}

async function signIn(page: Page, path: string) {
  await page.goto(`${server!.url}${path}`);
  const form = page.getByRole('form', { name: 'Staff sign in' });
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(OWNER);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(STAFF_PASSWORD);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Logged in as Olive Owner')).toBeVisible();
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Staff' });
const memberRow = (page: Page, email: string): Locator => page.getByRole('row').filter({ hasText: email });

/** Ticks or unticks a role (its label: the kit's box lies over the input). */
async function tick(scope: Locator, role: string) {
  await scope.locator('label').filter({ hasText: role }).first().click();
}

async function shots(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow, `${name} overflows at ${width} px`).toBe(false);
    await page.screenshot({ path: `${SHOTS}/roles-web-${name}-${width}.png`, fullPage: true });
  }
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test('an owner invites a Finance member, changes their roles and deactivates them; the last owner stays', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = await newPage(browser);
  await signIn(owner, '/staff/members');
  await expect(owner.getByRole('heading', { level: 1, name: 'Staff' })).toBeVisible();
  await expect(memberRow(owner, OWNER)).toContainText('Owner');
  await expect(owner.getByText('No pending invitations.')).toBeVisible();

  // The invitation: an e-mail and at least one role.
  await owner.getByRole('button', { name: 'Invite a staff member' }).click();
  const dialog = owner.getByRole('dialog', { name: 'Invite a staff member' });
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByText('Please enter an e-mail address.')).toBeVisible();
  await expect(dialog.getByText('Choose at least one role.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'E-mail' }).fill(INVITEE);
  await tick(dialog, 'Finance');
  await shots(owner, 'invite-dialog');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(owner.getByRole('status').filter({ hasText: 'Invitation sent' })).toHaveText(
    `Invitation sent to ${INVITEE} as Finance.`,
  );
  await expect(memberRow(owner, INVITEE)).toContainText('Finance');

  // The invitee accepts in a browser of their own and lands on the staff pages Finance may use.
  const finn = await newPage(browser);
  await finn.goto(inviteLinkTo(INVITEE));
  await expect(finn.getByRole('heading', { level: 1, name: 'Join the staff' })).toBeVisible();
  await expect(finn.getByText(INVITEE)).toBeVisible();
  await expect(finn.getByRole('definition')).toHaveText([INVITEE, 'Finance']);
  await shots(finn, 'invitation-page');
  await finn.getByRole('textbox', { name: 'First name' }).fill('Finn');
  await finn.getByRole('textbox', { name: 'Last name' }).fill('Finance');
  await finn.getByRole('textbox', { name: 'Password', exact: true }).fill(INVITEE_PASSWORD);
  await finn.getByRole('textbox', { name: 'Confirm password', exact: true }).fill(INVITEE_PASSWORD);
  await finn.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(finn.getByText('Logged in as Finn Finance')).toBeVisible();
  await expect(finn).toHaveURL(/\/staff\/orders$/);
  await expect(nav(finn).getByRole('link', { name: 'Orders' })).toBeVisible();
  await expect(nav(finn).getByRole('link', { name: 'Stores' })).toHaveCount(0);
  await expect(nav(finn).getByRole('link', { name: 'Staff' })).toHaveCount(0);

  // Stores typed in: the 403 page, with the role it needs and a way back.
  await finn.goto(`${server!.url}/manage_order_forms`);
  await expect(finn.getByRole('heading', { level: 1, name: NO_ACCESS })).toBeVisible();
  await expect(finn.getByRole('alert')).toContainText('It needs the Store manager role.');
  await shots(finn, 'forbidden-page');
  await finn.getByRole('link', { name: 'Back to Orders' }).click();
  await expect(finn).toHaveURL(/\/staff\/orders$/);

  // The link is spent.
  const again = await newPage(browser);
  await again.goto(inviteLinkTo(INVITEE));
  await expect(again.getByRole('alert')).toHaveText(
    'This invitation has already been used. Sign in with the password you chose.',
  );

  // The owner adds Media: the member's next page load shows Uploads.
  await owner.reload();
  await memberRow(owner, INVITEE)
    .getByRole('button', { name: /^Change roles/ })
    .click();
  const roles = owner.getByRole('dialog', { name: 'Roles of Finn Finance' });
  await tick(roles, 'Media');
  await roles.getByRole('button', { name: 'Save roles' }).click();
  await expect(owner.getByRole('status').filter({ hasText: 'is now' })).toHaveText(
    'Finn Finance is now Finance and Media.',
  );
  await finn.reload();
  await expect(nav(finn).getByRole('link', { name: 'Uploads', exact: true })).toBeVisible();

  // Deactivated: the member's next call fails and the shell says so.
  await memberRow(owner, INVITEE)
    .getByRole('button', { name: /^Deactivate/ })
    .click();
  await owner.getByRole('alertdialog').getByRole('button', { name: 'Deactivate' }).click();
  await expect(memberRow(owner, INVITEE)).toContainText('Deactivated');
  await shots(owner, 'staff-page');
  // Their next call (a page of theirs may already have made it) ends in the sign-in form, saying why.
  const pullSheet = nav(finn).getByRole('link', { name: 'Pull sheet' });
  if (await pullSheet.isVisible()) await pullSheet.click({ timeout: 2_000 }).catch(() => undefined);
  await expect(finn.getByRole('form', { name: 'Staff sign in' })).toBeVisible();
  await expect(finn.getByText(/Your session has ended/)).toBeVisible();

  // The last owner can neither demote nor deactivate themselves.
  await memberRow(owner, OWNER)
    .getByRole('button', { name: /^Change roles/ })
    .click();
  const own = owner.getByRole('dialog', { name: 'Roles of Olive Owner' });
  await tick(own, 'Owner');
  await tick(own, 'Finance');
  await own.getByRole('button', { name: 'Save roles' }).click();
  await expect(own.getByRole('alert')).toHaveText(LAST_OWNER);
  await own.getByRole('button', { name: 'Cancel' }).click();
  await memberRow(owner, OWNER)
    .getByRole('button', { name: /^Deactivate/ })
    .click();
  await owner.getByRole('alertdialog').getByRole('button', { name: 'Deactivate' }).click();
  await expect(owner.getByRole('alert').filter({ hasText: 'active owner' })).toHaveText(LAST_OWNER);
  await expect(memberRow(owner, OWNER)).toContainText('Active');
});
