import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { VirtualList } from './VirtualList';

const names = Array.from({ length: 2000 }, (_, i) => `still-${String(i + 1).padStart(4, '0')}.jpg`);

function Files({ count = names.length }: { count?: number }) {
  return (
    <VirtualList
      label="Chosen files"
      count={count}
      estimateHeight={48}
      itemKey={(i) => names[i]!}
      renderItem={(i) => (
        <>
          <span>{names[i]}</span>
          <button type="button" aria-label={`Remove ${names[i]}`}>
            Remove
          </button>
        </>
      )}
    />
  );
}

const rows = () => within(screen.getByRole('list', { name: 'Chosen files' })).getAllByRole('listitem');

describe('VirtualList', () => {
  it('draws a window of rows for 2,000 items, each saying where it stands in the whole list', () => {
    render(<Files />);
    const drawn = rows();
    // 480 px of 48 px rows, and the overscan below: a screenful, not 2,000.
    expect(drawn.length).toBeGreaterThan(5);
    expect(drawn.length).toBeLessThan(40);
    expect(drawn[0]).toHaveProperty('textContent', 'still-0001.jpgRemove');
    expect(drawn[0]!.getAttribute('aria-posinset')).toBe('1');
    expect(drawn[0]!.getAttribute('aria-setsize')).toBe('2000');
    // A list that scrolls is a tab stop of its own, for the keyboard's scrolling.
    expect(screen.getByRole('list', { name: 'Chosen files' }).tabIndex).toBe(0);
  });

  it('draws every row of a short list, and is no extra tab stop then', () => {
    render(<Files count={3} />);
    expect(rows()).toHaveLength(3);
    expect(screen.getByRole('list', { name: 'Chosen files' }).hasAttribute('tabindex')).toBe(false);
  });

  it('draws the rows at the scrolled-to place', () => {
    render(<Files />);
    const list = screen.getByRole('list', { name: 'Chosen files' });
    list.scrollTop = 48 * 1000;
    fireEvent.scroll(list);
    const drawn = rows();
    const first = Number(drawn[0]!.getAttribute('aria-posinset'));
    expect(first).toBeGreaterThan(980);
    expect(first).toBeLessThanOrEqual(1001);
    expect(screen.getByText('still-1001.jpg')).toBeDefined();
    expect(screen.queryByText('still-0001.jpg')).toBeNull();
    expect(drawn.length).toBeLessThan(40);
  });

  it('End and Home on the focused list reach the last and the first item', async () => {
    const user = userEvent.setup();
    render(<Files />);
    const list = screen.getByRole('list', { name: 'Chosen files' });
    list.focus();
    await user.keyboard('{End}');
    expect(screen.getByText('still-2000.jpg')).toBeDefined();
    expect(rows().at(-1)!.getAttribute('aria-posinset')).toBe('2000');
    expect(screen.queryByText('still-0001.jpg')).toBeNull();
    await user.keyboard('{Home}');
    expect(screen.getByText('still-0001.jpg')).toBeDefined();
    expect(screen.queryByText('still-2000.jpg')).toBeNull();
  });

  it('Arrow Down and Up move to the same control of the next and previous row, past the drawn window', async () => {
    const user = userEvent.setup();
    render(<Files />);
    screen.getByRole('button', { name: 'Remove still-0001.jpg' }).focus();
    for (let i = 0; i < 59; i++) await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove still-0060.jpg' }));
    expect(screen.queryByText('still-0001.jpg')).toBeNull();
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove still-0059.jpg' }));
    expect(rows().length).toBeLessThan(40);
  });

  it('gives the focus to the list, not to the page, when the focused row is scrolled away', () => {
    render(<Files />);
    const list = screen.getByRole('list', { name: 'Chosen files' });
    screen.getByRole('button', { name: 'Remove still-0002.jpg' }).focus();
    list.scrollTop = 48 * 1500;
    fireEvent.scroll(list);
    expect(screen.queryByText('still-0002.jpg')).toBeNull();
    expect(document.activeElement).toBe(list);
  });
});
