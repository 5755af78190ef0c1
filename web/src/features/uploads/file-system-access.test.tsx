/**
 * 'Choose files' with the File System Access picker where the browser has one (issue #34: Chromium's
 * <input> makes a FileList of 2,000 in one long task): the picked handles become Files a slice at a time,
 * the <input> stays the way in everywhere else, and a dismissed picker does nothing. The browser's picker
 * is stood in for (jsdom has none); the components are the real ones.
 */
import { render, screen } from '@testing-library/react';
import { useState } from 'react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileDropZone, HANDLE_SLICE, unreadableText } from './FileDropZone';
import { FilePicker } from './FilePicker';

const name = (i: number) => `event-still-${String(i + 1).padStart(4, '0')}.jpg`;

function handleOf(file: File) {
  return { kind: 'file', name: file.name, getFile: () => Promise.resolve(file) };
}

const picker = vi.fn<(options: { multiple: boolean }) => Promise<unknown[]>>();
const inputClick = vi.spyOn(HTMLInputElement.prototype, 'click');

beforeEach(() => {
  picker.mockReset();
  inputClick.mockClear();
  (globalThis as { showOpenFilePicker?: unknown }).showOpenFilePicker = picker;
});
afterEach(() => {
  delete (globalThis as { showOpenFilePicker?: unknown }).showOpenFilePicker;
});

describe('Choose files where the browser has showOpenFilePicker', () => {
  it('asks for many files and hands them on a slice at a time, in the order picked', async () => {
    const user = userEvent.setup();
    const files = Array.from({ length: 250 }, (_, i) => new File(['x'], name(i)));
    picker.mockResolvedValue(files.map(handleOf));
    const added: File[][] = [];
    render(
      <FileDropZone items={[]} onAdd={(list) => added.push(list)} onRemove={() => {}} fileSystemAccess />,
    );
    await user.click(screen.getByRole('button', { name: 'Choose files' }));
    await vi.waitFor(() => expect(added.flat()).toHaveLength(250));
    expect(picker).toHaveBeenCalledWith({ multiple: true });
    expect(added.every((slice) => slice.length <= HANDLE_SLICE)).toBe(true);
    expect(added.flat()).toEqual(files);
    expect(inputClick).not.toHaveBeenCalled();
  });

  it('lists the files chosen through the form’s picker', async () => {
    const user = userEvent.setup();
    picker.mockResolvedValue(Array.from({ length: 250 }, (_, i) => handleOf(new File(['x'], name(i)))));
    let files: File[] = [];
    const view = () => <FilePicker files={files} onChange={(next) => (files = next)} />;
    const { rerender } = render(view());
    await user.click(screen.getByRole('button', { name: 'Choose files' }));
    await vi.waitFor(() => expect(files).toHaveLength(250));
    rerender(view());
    expect(screen.getByText('250 files chosen')).toBeDefined();
  });

  it('keeps every file of a pick read in slices on a slow machine, the form drawing between them', async () => {
    const user = userEvent.setup();
    // A busy machine: each file taken in takes longer than a slice's budget, so a slice holds one file.
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 20));
    const files = Array.from({ length: 600 }, (_, i) => new File(['x'], name(i)));
    // Each file read from its handle arrives in a task of its own, as the browser's answers do.
    picker.mockResolvedValue(
      files.map((file) => ({
        kind: 'file',
        name: file.name,
        getFile: () => new Promise<File>((resolve) => setTimeout(() => resolve(file), 1)),
      })),
    );
    let chosen: File[] = [];
    function Form() {
      const [list, setList] = useState<File[]>([]);
      chosen = list;
      return <FilePicker files={list} onChange={setList} />;
    }
    render(<Form />);
    await user.click(screen.getByRole('button', { name: 'Choose files' }));
    await vi.waitFor(() => expect(chosen).toHaveLength(600), { timeout: 15_000 });
    now.mockRestore();
    expect(new Set(chosen).size).toBe(600);
    expect(screen.getByText('600 files chosen')).toBeDefined();
  }, 20_000);

  it('adds the files it could read and says which it could not', async () => {
    const user = userEvent.setup();
    const gone = {
      kind: 'file',
      name: 'moved-away.mov',
      getFile: () => Promise.reject(new Error('NotFound')),
    };
    picker.mockResolvedValue([handleOf(new File(['x'], 'keynote.mov')), gone]);
    const added: File[] = [];
    render(
      <FileDropZone items={[]} onAdd={(list) => added.push(...list)} onRemove={() => {}} fileSystemAccess />,
    );
    await user.click(screen.getByRole('button', { name: 'Choose files' }));
    expect((await screen.findByRole('alert')).textContent).toBe(unreadableText(['moved-away.mov']));
    expect(unreadableText(['moved-away.mov'])).toBe('This file could not be read: moved-away.mov.');
    expect(added.map((f) => f.name)).toEqual(['keynote.mov']);
  });

  it('does nothing when the picker is dismissed, and opens the file input when the picker is refused', async () => {
    const user = userEvent.setup();
    const onAdd = vi.fn();
    render(<FileDropZone items={[]} onAdd={onAdd} onRemove={() => {}} fileSystemAccess />);
    const button = screen.getByRole('button', { name: 'Choose files' });
    picker.mockRejectedValueOnce(new DOMException('The user aborted a request.', 'AbortError'));
    await user.click(button);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(inputClick).not.toHaveBeenCalled();
    picker.mockRejectedValueOnce(
      new DOMException('Cross origin sub frames aren’t allowed.', 'SecurityError'),
    );
    await user.click(button);
    await vi.waitFor(() => expect(inputClick).toHaveBeenCalledTimes(1));
    expect(onAdd).not.toHaveBeenCalled();
  });

  it('keeps the file input for a caller that needs files with a path (the desktop app), from the keyboard too', async () => {
    const user = userEvent.setup();
    render(<FileDropZone items={[]} onAdd={() => {}} onRemove={() => {}} />);
    screen.getByRole('button', { name: 'Choose files' }).focus();
    await user.keyboard('{Enter}');
    expect(inputClick).toHaveBeenCalledTimes(1);
    expect(picker).not.toHaveBeenCalled();
  });
});

describe('Choose files where the browser has no showOpenFilePicker (Firefox, Safari, phones)', () => {
  it('opens the file input', async () => {
    delete (globalThis as { showOpenFilePicker?: unknown }).showOpenFilePicker;
    const user = userEvent.setup();
    render(<FileDropZone items={[]} onAdd={() => {}} onRemove={() => {}} fileSystemAccess />);
    screen.getByRole('button', { name: 'Choose files' }).focus();
    await user.keyboard(' ');
    expect(inputClick).toHaveBeenCalledTimes(1);
  });
});
