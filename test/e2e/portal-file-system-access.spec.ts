import { expect, test } from '../support/fixtures';

/**
 * 'Choose files' in desktop Chromium opens the File System Access picker (issue #34: Chromium builds an
 * <input>'s FileList of 2,000 files in one long task before the page hears of it). A headless browser has
 * no system dialog to answer it, so a page-level showOpenFilePicker stands in for the dialog and answers
 * handles of files written into the origin private file system: what the page does from there (getFile()
 * a slice at a time, the list, the send) is the real thing, against the real server. Among the files is
 * one of two parts, whose sha-256 a hash worker reads from the File it is handed: the server checks it.
 */

const PASSWORD = 'Handles 2026 portal';
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLIENT_EMAIL = `handles.${suffix}@example.com`;
const THANKS = 'Thank you! Your files were received.';
const SMALL = 150;
const TWO_PARTS = 6_291_456 + 200_000;

test('files chosen through the File System Access picker are listed and sent whole', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const registered = await fetch(`${baseURL}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseURL! },
    body: JSON.stringify({
      email: CLIENT_EMAIL,
      firstname: 'Hana',
      lastname: 'Handles',
      company: 'Event Stills',
      phone: '(555) 123-4567',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    }),
  });
  expect(registered.status).toBe(201);
  await page.goto('/client#creative');
  const login = page.getByRole('form', { name: 'Sign in' });
  await login.getByRole('textbox', { name: 'Email', exact: true }).fill(CLIENT_EMAIL);
  await login.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await login.getByRole('button', { name: 'Sign in', exact: true }).click();
  const form = page.getByRole('form', { name: 'Creative Asset form' });
  await form.getByRole('textbox', { name: 'Project name', exact: true }).fill('Handles');

  const names = await page.evaluate(
    async ({ small, twoParts }) => {
      const root = await navigator.storage.getDirectory();
      const files = [
        { name: 'keynote-reel.mp4', size: twoParts },
        ...Array.from({ length: small }, (_, i) => ({
          name: `still-${String(i + 1).padStart(3, '0')}.jpg`,
          size: 1024 + i * 13,
        })),
      ];
      const handles: FileSystemFileHandle[] = [];
      for (const { name, size } of files) {
        const handle = await root.getFileHandle(name, { create: true });
        const bytes = new Uint8Array(size);
        for (let at = 0; at < size; at += 65_536) crypto.getRandomValues(bytes.subarray(at, at + 65_536));
        const writable = await handle.createWritable();
        await writable.write(bytes);
        await writable.close();
        handles.push(handle);
      }
      const asked: unknown[] = [];
      Object.assign(globalThis, {
        pickerAsked: asked,
        showOpenFilePicker: (options: unknown) => {
          asked.push(options);
          return Promise.resolve(handles);
        },
      });
      return files.map((f) => f.name);
    },
    { small: SMALL, twoParts: TWO_PARTS },
  );

  await form.getByRole('button', { name: 'Choose files', exact: true }).click();
  await expect(form.getByText(`${names.length} files chosen`, { exact: true })).toBeVisible({
    timeout: 60_000,
  });
  expect(await page.evaluate(() => (globalThis as { pickerAsked?: unknown[] }).pickerAsked)).toEqual([
    { multiple: true },
  ]);
  const chosen = form.getByRole('list', { name: 'Chosen files' });
  await expect(chosen.getByRole('button', { name: 'Remove keynote-reel.mp4' })).toBeVisible();

  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(THANKS)).toBeVisible({ timeout: 150_000 });
  const mine = (await (await page.request.get('/api/uploads/mine')).json()) as {
    submissions: {
      fields: Record<string, string>;
      files: { name: string; size: number; status: string }[];
    }[];
  };
  const sent = mine.submissions.find((s) => s.fields.project_name === 'Handles');
  expect(sent?.files.map((f) => f.name).sort()).toEqual([...names].sort());
  expect(sent?.files.every((f) => f.status === 'complete')).toBe(true);
  expect(sent?.files.find((f) => f.name === 'keynote-reel.mp4')?.size).toBe(TWO_PARTS);
});
