/**
 * 2,000 files at once (issue #34): the chosen files' list and the list of a send draw a window of rows,
 * each named after its file; the send's summary counts them, and 'failed only' finds the failures.
 */
import { UploadClient, type TransportRequest, type TransportResponse } from '@avp/shared';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { chosenCountText, FileDropZone, type ChosenFile } from './FileDropZone';
import { ADD_SLICE, FilePicker } from './FilePicker';
import { FAILED_ONLY, SendingList, summaryText } from './SendingList';
import { fileSource } from './transport';

const MANY = 2000;
const name = (i: number) => `event-still-${String(i + 1).padStart(4, '0')}.jpg`;

describe('the chosen files, 2,000 of them', () => {
  const items: ChosenFile[] = Array.from({ length: MANY }, (_, i) => ({
    key: `file:${name(i)}`,
    name: name(i),
    size: '4 KB',
  }));

  it('lists a screenful of rows in the page, says how many there are, and names each row’s Remove', () => {
    render(<FileDropZone items={items} onAdd={() => undefined} onRemove={() => undefined} />);
    const list = screen.getByRole('list', { name: 'Chosen files' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.length).toBeLessThan(40);
    expect(rows[0]!.getAttribute('aria-setsize')).toBe('2000');
    expect(rows[0]!.getAttribute('aria-posinset')).toBe('1');
    expect(screen.getByText(chosenCountText(MANY))).toHaveProperty('textContent', '2,000 files chosen');
    expect(within(rows[0]!).getByRole('button', { name: `Remove ${name(0)}` })).toBeDefined();
  });

  it('reaches the last file from the keyboard, and removes the file whose button is pressed', async () => {
    const user = userEvent.setup();
    const removed: string[] = [];
    render(<FileDropZone items={items} onAdd={() => undefined} onRemove={(key) => removed.push(key)} />);
    const list = screen.getByRole('list', { name: 'Chosen files' });
    list.focus();
    await user.keyboard('{End}');
    const last = screen.getByRole('button', { name: `Remove ${name(MANY - 1)}` });
    await user.click(last);
    expect(removed).toEqual([`file:${name(MANY - 1)}`]);
    // From the last row's Remove, Arrow Up goes to the one before.
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: `Remove ${name(MANY - 2)}` }));
  });
});

describe('a pick of 2,000 files', () => {
  it('is taken into the list a slice at a time, the first at once, and each file once', async () => {
    const picked = Array.from({ length: MANY }, (_, i) => new File(['x'], name(i), { lastModified: 1 }));
    let files: File[] = [];
    const changes: number[] = [];
    const view = () => (
      <FilePicker files={files} onChange={(next) => (changes.push(next.length), (files = next))} />
    );
    const { rerender } = render(view());
    const input = screen.getByTestId('upload-file-input');
    fireEvent.change(input, { target: { files: picked } });
    // The first slice at once, the others in tasks of their own, each with at most ADD_SLICE files.
    expect(changes).toHaveLength(1);
    await vi.waitFor(() => expect(files).toHaveLength(MANY));
    expect(changes.length).toBeGreaterThanOrEqual(MANY / ADD_SLICE);
    expect(changes.every((n, i) => n - (changes[i - 1] ?? 0) <= ADD_SLICE)).toBe(true);
    expect(new Set(files).size).toBe(MANY);
    rerender(view());
    expect(screen.getByText('2,000 files chosen')).toBeDefined();
    // The same files again add nothing.
    changes.length = 0;
    fireEvent.change(input, { target: { files: picked.slice(0, 120) } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(changes).toEqual([]);
    expect(files).toHaveLength(MANY);
  });
});

/**
 * A client whose server refuses the files named 'broken-…' at registration and never answers the others
 * (they stay sending or waiting): the page's side only, without a server (the browser test has one).
 */
function stalledClient(): UploadClient {
  const transport = (request: TransportRequest): Promise<TransportResponse> => {
    // No registration of many files in one call here: one at a time, as with an older server.
    if (request.path.endsWith('/files/batch')) {
      return Promise.resolve({ status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } });
    }
    const json = request.json as { name?: string } | undefined;
    if (json?.name?.startsWith('broken-')) {
      return Promise.resolve({
        status: 400,
        body: { error: { code: 'bad_file', message: 'This file cannot be taken.' } },
      });
    }
    return new Promise(() => undefined);
  };
  return new UploadClient({ transport, createHasher: null });
}

describe('the files of a send, 2,000 of them', () => {
  it('draws a window of rows, counts the files in a summary line, and shows only the failed ones when asked', async () => {
    const user = userEvent.setup();
    const queue = stalledClient().queue('sub-1');
    const names = [
      ...Array.from({ length: 3 }, (_, i) => `broken-${i + 1}.jpg`),
      ...Array.from({ length: MANY - 3 }, (_, i) => name(i)),
    ];
    for (const n of names) queue.add(fileSource(new File(['x'.repeat(10)], n, { lastModified: 1 })));
    // The refusals arrive as answers, after this turn.
    await act(async () => {
      await Promise.all(queue.files.slice(0, 3).map((f) => f.settled()));
    });
    render(<SendingList queue={queue} held={[]} />);

    expect(screen.getByTestId('upload-summary').textContent).toBe('2,000 files: 0 sent, 3 failed');
    const list = screen.getByRole('list', { name: 'Files being sent' });
    const rows = within(list).getAllByTestId('upload-row');
    expect(rows.length).toBeLessThan(40);
    expect(rows[0]!.getAttribute('aria-setsize')).toBe('2000');
    expect(rows[0]).toHaveProperty('textContent', expect.stringContaining('Failed'));
    expect(within(list).getByRole('button', { name: `Pause ${name(0)}` })).toBeDefined();
    // Nothing of the list is announced as it changes: 2,000 files would be 2,000 announcements.
    expect(document.querySelectorAll('[aria-live], [role="status"], [role="alert"]')).toHaveLength(0);

    await user.click(screen.getByRole('checkbox', { name: FAILED_ONLY }));
    const failed = screen.getByRole('list', { name: 'Files that failed' });
    const failedRows = within(failed).getAllByTestId('upload-row');
    expect(failedRows.map((r) => r.querySelector('.uploads-file-name')?.textContent)).toEqual([
      'broken-1.jpg',
      'broken-2.jpg',
      'broken-3.jpg',
    ]);
    expect(failedRows[0]!.getAttribute('aria-setsize')).toBe('3');
    expect(within(failed).getByRole('button', { name: 'Remove broken-2.jpg' })).toBeDefined();
    // 2,000 files queued: seconds on a busy two-core runner.
  }, 20_000);

  it('shows a file still to join the queue as waiting, or as being read when its event has a spec', () => {
    const queue = stalledClient().queue('sub-2');
    const file = (n: string) => new File(['x'], n, { lastModified: 1 });
    render(
      <SendingList
        queue={queue}
        held={[
          { file: file('a.jpg'), blocked: null, waiting: true },
          { file: file('b.mov'), blocked: null },
          { file: file('c.mov'), blocked: ['The screens need 1920×1080; this file is 1280×720.'] },
        ]}
      />,
    );
    const rows = screen.getAllByTestId('upload-held-row').map((r) => r.textContent);
    expect(rows[0]).toContain('Waiting');
    expect(rows[1]).toContain('Reading its details');
    expect(rows[2]).toContain('Not sent');
    expect(screen.getByTestId('upload-summary').textContent).toBe('3 files: 0 sent, 0 failed, 1 not sent');
  });

  it('words the summary', () => {
    expect(summaryText({ files: 1, sent: 1, failed: 0, notSent: 0 })).toBe('1 file: 1 sent, 0 failed');
    expect(summaryText({ files: 2000, sent: 1995, failed: 2, notSent: 3 })).toBe(
      '2,000 files: 1,995 sent, 2 failed, 3 not sent',
    );
  });
});
