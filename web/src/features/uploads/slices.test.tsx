/**
 * Work over 2,000 files in slices (issue #34): a list taken in a slice at a time, and the files' facts
 * taken in as they come, for the new files of a grown list only.
 */
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { eachInSlices } from './coalesce';
import { useFilesFacts } from './media-facts';

describe('eachInSlices', () => {
  it('calls each item once, in order, the first slice at once and the others in later tasks', async () => {
    const seen: number[] = [];
    const list = Array.from({ length: 50 }, (_, i) => i);

    // Each item takes 1 ms: with a 5 ms budget, a slice holds a handful.
    const done = eachInSlices(
      list,
      (i) => {
        seen.push(i);
        const until = performance.now() + 1;
        while (performance.now() < until);
      },
      5,
    );
    const sync = seen.length;
    await done;
    expect(sync).toBeGreaterThan(0);
    expect(sync).toBeLessThan(50);
    expect(seen).toEqual(list);
    await eachInSlices([], () => {
      throw new Error('never called');
    });
  });
});

function Facts({ files }: { files: File[] }) {
  const facts = useFilesFacts(files);
  return (
    <ul>
      {files.map((file) => (
        <li key={file.name}>{`${file.name}: ${facts.get(file).status}`}</li>
      ))}
    </ul>
  );
}

describe('useFilesFacts', () => {
  it('shows each file as being read, then as read, and keeps what was read as the list grows', async () => {
    // No Worker under jsdom: every file reads as 'could not read', at once.
    const files = Array.from({ length: 6 }, (_, i) => new File(['x'], `f${i}.jpg`));
    const { rerender } = render(<Facts files={files.slice(0, 3)} />);
    expect(screen.getByText('f0.jpg: reading')).toBeDefined();
    await act(() => new Promise((resolve) => setTimeout(resolve, 120)));
    expect(screen.getByText('f2.jpg: read')).toBeDefined();
    rerender(<Facts files={files} />);
    expect(screen.getByText('f0.jpg: read')).toBeDefined();
    expect(screen.getByText('f5.jpg: reading')).toBeDefined();
    await act(() => new Promise((resolve) => setTimeout(resolve, 120)));
    expect(screen.getAllByText(/: read$/)).toHaveLength(6);
  });
});
