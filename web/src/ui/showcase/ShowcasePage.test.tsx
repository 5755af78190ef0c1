import { render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../app/App';
import { ShowcasePage } from './ShowcasePage';

beforeEach(() => {
  window.localStorage.clear();
});

describe('/ui showcase', () => {
  it('shows every widget of the kit', () => {
    render(<ShowcasePage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Widget kit' })).toBeTruthy();
    for (const section of [
      'Buttons',
      'Text fields',
      'Select and suggestions',
      'Date and time',
      'Password',
      'Numbers',
      'Sliders',
      'Checkboxes and radio buttons',
      'Fill chart',
      'Dialogs',
      'Theme constants',
    ]) {
      expect(screen.getByRole('heading', { level: 2, name: section })).toBeTruthy();
    }
    expect(screen.getAllByRole('combobox').length).toBeGreaterThan(0);
    expect(screen.getAllByRole('slider').length).toBeGreaterThan(3);
    expect(screen.getAllByRole('meter')).toHaveLength(3);
    expect(screen.getByRole('checkbox', { name: 'Partial' })).toHaveProperty('indeterminate', true);
    expect(screen.getByRole('checkbox', { name: 'Unlimited Max' })).toHaveProperty('checked', true);
    expect(screen.getByRole('form', { name: 'Contact form example' })).toBeTruthy();
  });

  it('has no axe violations (colour contrast is checked in the browser by the Playwright spec)', async () => {
    const { container } = render(<ShowcasePage />);
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  });

  it('is routed at /ui in development builds', async () => {
    render(
      <MemoryRouter initialEntries={['/ui']}>
        <App />
      </MemoryRouter>,
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Widget kit' }, { timeout: 5000 }),
    ).toBeTruthy();
  });
});
