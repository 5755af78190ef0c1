import type { SubmissionFields } from '@avp/shared';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UploadFormBase } from './UploadFormBase';

const FILES = [{ name: 'reel.mp4', size: 10, type: 'video/mp4' }];

function form(submitSignal: number, onSubmit: (fields: SubmissionFields) => void) {
  return (
    <UploadFormBase
      formType="sponsor"
      files={FILES}
      renderFiles={() => null}
      initialValues={{ event_name: 'Expo 2027', sponsor_company: 'Acme AV' }}
      submitSignal={submitSignal}
      onSubmit={onSubmit}
    />
  );
}

describe('an upload form continued after a reload', () => {
  it('starts from the values given, and is submitted by a new signal only, not by the one it mounted with', async () => {
    const onSubmit = vi.fn();
    // requestSubmit dispatches the form's submit event at once, inside the effect that calls it.
    let submits = 0;
    const count = () => void submits++;
    document.addEventListener('submit', count, true);
    const { rerender } = render(form(3, onSubmit));
    expect(screen.getByRole('textbox', { name: 'Event name' })).toHaveProperty('value', 'Expo 2027');
    // A fresh form after a send mounts with the last signal: it is not sent.
    expect(submits).toBe(0);
    rerender(form(4, onSubmit));
    expect(submits).toBe(1);
    document.removeEventListener('submit', count, true);
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      form_type: 'sponsor',
      event_name: 'Expo 2027',
      sponsor_company: 'Acme AV',
      description: '',
    });
  });
});
