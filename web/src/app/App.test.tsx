import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { App } from './App';

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App />
    </MemoryRouter>,
  );
}

describe('app shell (SPEC §2 routes and layout elements)', () => {
  it.each(['/', '/home'])(
    'renders the splash with three panels at %s',
    async (path) => {
      // Pages are code-split: the first render suspends until the page's module has loaded.
      await act(async () => {
        renderAt(path);
      });
      for (const name of ['Creative Services', 'Event Production', 'Planner Resources']) {
        expect(await screen.findByRole('heading', { level: 2, name }, { timeout: 15_000 })).toBeTruthy();
      }
    },
    20_000,
  );

  it('shows the spec text for an unknown route', () => {
    renderAt('/no/such/page');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sorry, Page Not Found.');
  });

  it('shows the current year and the privacy link in the footer', () => {
    renderAt('/');
    const footer = screen.getByRole('contentinfo');
    expect(footer.textContent).toContain(String(new Date().getFullYear()));
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
  });

  it.each(['/manage_order_forms', '/exhibitor_order/demo-expo'])(
    'hides header, contact panel and footer on %s',
    (path) => {
      renderAt(path);
      expect(screen.queryByRole('banner')).toBeNull();
      expect(screen.queryByRole('contentinfo')).toBeNull();
      expect(document.getElementById('contact')).toBeNull();
    },
  );

  it('hides the contact panel on /blog but keeps the footer', async () => {
    await act(async () => {
      renderAt('/blog');
    });
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Notes from the production desk' },
        { timeout: 15_000 },
      ),
    ).toBeTruthy();
    expect(document.getElementById('contact')).toBeNull();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
  }, 20_000);
});
