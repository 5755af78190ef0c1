import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Button } from './Button';
import { ConfirmDialog, MessageDialog } from './Dialogs';
import { setupUser } from './test-utils';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function MessageHarness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onPress={() => setOpen(true)}>Send</Button>
      <MessageDialog isOpen={open} onClose={() => setOpen(false)} title="Thank you">
        Your message was sent.
      </MessageDialog>
    </>
  );
}

describe('MessageDialog (SPEC §2: a modal message with a Continue button)', () => {
  it('opens modal with the focus on Continue, which closes it and returns the focus', async () => {
    const user = setupUser();
    render(<MessageHarness />);
    await user.tab();
    await user.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: 'Thank you' });
    expect(dialog.textContent).toContain('Your message was sent.');
    const proceed = screen.getByRole('button', { name: 'Continue' });
    expect(document.activeElement).toBe(proceed);
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Send' }));
  });

  it('Escape closes it too', async () => {
    const user = setupUser();
    render(<MessageHarness />);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps Tab inside the dialog', async () => {
    const user = setupUser();
    render(<MessageHarness />);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Continue' }));
  });
});

describe('ConfirmDialog (title, text, confirm and cancel labels)', () => {
  const props = {
    title: 'Delete store',
    text: 'Are you sure you want to delete the currently selected store, this action cannot be undone.',
    confirmLabel: 'Continue and Delete',
    cancelLabel: 'Cancel',
  };

  it('shows its texts as an alert dialog with the focus on Cancel', () => {
    render(<ConfirmDialog isOpen {...props} onConfirm={vi.fn()} onCancel={vi.fn()} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete store' });
    expect(dialog.textContent).toContain(props.text);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Continue and Delete' })).toBeTruthy();
  });

  it('confirm and cancel call back; Escape cancels', async () => {
    const user = setupUser();
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(<ConfirmDialog isOpen {...props} onConfirm={onConfirm} onCancel={onCancel} />);
    await user.tab();
    await user.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
