import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';

/**
 * The widget kit showcase (/ui, built in with VITE_UI_SHOWCASE=true by the global setup): axe finds
 * nothing to report, and the widgets work from the keyboard alone.
 */

async function openShowcase(page: Page) {
  await page.goto('/ui');
  await expect(page.getByRole('heading', { level: 1, name: 'Widget kit' })).toBeVisible();
}

function violationSummary(violations: { id: string; nodes: { target: unknown[] }[] }[]) {
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('widget kit showcase /ui', () => {
  test('axe reports no violations', async ({ page }) => {
    await openShowcase(page);
    const results = await new AxeBuilder({ page }).analyze();
    expect(violationSummary(results.violations)).toEqual([]);
  });

  test('date input: the calendar dialog opens from the keyboard and Escape closes it', async ({ page }) => {
    await openShowcase(page);
    const input = page.getByRole('textbox', { name: 'Date (filled)' });
    await input.focus();
    await page.keyboard.press('Tab');
    const trigger = page.getByRole('button', { name: 'Choose date' }).nth(1);
    await expect(trigger).toBeFocused();
    await page.keyboard.press('Enter');

    const dialog = page.getByRole('dialog', { name: 'Fri, Jun 20' });
    await expect(dialog).toBeVisible();
    const box = await page.locator('.kit-calendar-dialog').boundingBox();
    expect(box?.width).toBe(375);
    // The focus is in the calendar grid: arrows move it, Enter picks, and the title follows.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Sat, Jun 21' })).toBeVisible();

    const results = await new AxeBuilder({ page }).include('.kit-calendar-dialog').analyze();
    expect(violationSummary(results.violations)).toEqual([]);

    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(trigger).toBeFocused();
    await expect(input).toHaveValue('6/20/2031');
  });

  test('date input: a bad entry shows its message, then reverts', async ({ page }) => {
    await openShowcase(page);
    const input = page.getByRole('textbox', { name: 'Date (filled)' });
    await input.focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('13/45/2031');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Invalid Date Format (M/D/YYYY)')).toBeVisible();
    await expect(input).toHaveValue('6/20/2031', { timeout: 5000 });
    await expect(page.getByText('Invalid Date Format (M/D/YYYY)')).toHaveCount(0);
  });

  test('suggestions: typed text filters case-insensitively and a suggestion is picked with the keyboard', async ({
    page,
  }) => {
    await openShowcase(page);
    const combo = page.getByRole('combobox', { name: 'State', exact: true });
    await combo.focus();
    await page.keyboard.type('NEW M');
    const listbox = page.getByRole('listbox');
    await expect(listbox.getByRole('option')).toHaveText(['New Mexico']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(combo).toHaveValue('New Mexico');
    await expect(page.getByRole('listbox')).toHaveCount(0);

    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('zzz');
    await expect(page.getByRole('listbox')).toContainText('-- empty --');
    await page.keyboard.press('Escape');
  });

  test('slider: arrow keys move the handle; the range keeps its gap', async ({ page }) => {
    await openShowcase(page);
    const balance = page.getByRole('slider', { name: 'Balance' });
    await balance.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(balance).toHaveValue('52');
    await page.keyboard.press('Home');
    await expect(balance).toHaveValue('0');

    const low = page.getByRole('slider', { name: 'Minimum Price range' });
    await low.focus();
    await page.keyboard.press('End');
    // The upper handle is at 60 and the gap is 5.
    await expect(low).toHaveValue('55');
  });

  test('checkbox with Space, radio group with arrows', async ({ page }) => {
    await openShowcase(page);
    const box = page.getByRole('checkbox', { name: 'Unchecked' });
    await box.focus();
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
    await page.keyboard.press('Space');
    await expect(box).not.toBeChecked();

    const first = page.getByRole('radio', { name: 'Creative asset' });
    await first.focus();
    await page.keyboard.press('Space');
    await expect(first).toBeChecked();
    await page.keyboard.press('ArrowDown');
    const second = page.getByRole('radio', { name: 'Event asset' });
    await expect(second).toBeChecked();
    await expect(second).toBeFocused();
    await expect(first).not.toBeChecked();
  });

  test('layout: buttons 40 px (dense 32 px), date and time 60% / 40%, list panel 150 ms', async ({
    page,
  }) => {
    await openShowcase(page);
    expect((await page.getByRole('button', { name: 'Primary' }).boundingBox())?.height).toBe(40);
    expect((await page.getByRole('button', { name: 'Dense', exact: true }).boundingBox())?.height).toBe(32);

    const row = await page.locator('.kit-date-time').boundingBox();
    const date = await page.locator('.kit-date-time__date').boundingBox();
    const time = await page.locator('.kit-date-time__time').boundingBox();
    if (!row || !date || !time) throw new Error('the date-and-time pair is not laid out');
    // Each share gives up half of the 16 px gutter.
    expect(Math.abs((date.width + 8) / row.width - 0.6)).toBeLessThan(0.01);
    expect(Math.abs((time.width + 8) / row.width - 0.4)).toBeLessThan(0.01);

    const room = page.getByRole('button', { name: 'Select… Room', exact: true });
    await room.focus();
    await page.keyboard.press('ArrowDown');
    const panel = page.locator('.kit-list-panel');
    await expect(panel).toHaveAttribute('data-shown', 'true');
    await expect(panel).toHaveCSS('opacity', '1');
    await page.keyboard.press('Escape');
  });

  test('message dialog: opened with Enter, closed with Continue, focus returns', async ({ page }) => {
    await openShowcase(page);
    const opener = page.getByRole('button', { name: 'Show message' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Thank you' });
    await expect(dialog).toBeVisible();
    const proceed = dialog.getByRole('button', { name: 'Continue' });
    await expect(proceed).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(opener).toBeFocused();
  });
});
