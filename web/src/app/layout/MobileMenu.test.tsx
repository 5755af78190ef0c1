import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupUser } from '../../ui/test-utils';
import { MobileMenu } from './MobileMenu';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function renderMenu() {
  render(
    <MemoryRouter initialEntries={['/about']}>
      <MobileMenu />
    </MemoryRouter>,
  );
  return screen.getByRole('button', { name: 'Menu' });
}

describe('MobileMenu (SPEC §2 mobile menu)', () => {
  it('opens as a modal panel with the focus inside, and Tab wraps around inside it', async () => {
    const user = setupUser();
    const toggle = renderMenu();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    const dialog = screen.getByRole('dialog', { name: 'Menu' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const close = screen.getByRole('button', { name: 'Close menu' });
    expect(document.activeElement).toBe(close);
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Facebook (opens in a new tab)');
    await user.tab();
    expect(document.activeElement).toBe(close);
    for (let i = 0; i < 20; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
  });

  it('closes on Escape and gives the focus back to the menu button', async () => {
    const user = setupUser();
    const toggle = renderMenu();
    await user.click(toggle);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => vi.advanceTimersByTime(50));
    expect(document.activeElement).toBe(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes when a link is followed', async () => {
    const user = setupUser();
    renderMenu();
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(screen.getByRole('link', { name: 'Hot Trends' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
