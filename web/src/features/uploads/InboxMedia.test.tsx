import type { InboxFileMedia, UploadFileInfo } from '@avp/shared';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FileMedia, specBadgeText } from './InboxPage';

/** The inbox's media line and spec badge per file (issue #30). */

const BASE: UploadFileInfo = {
  id: 'f1',
  name: 'spot.mp4',
  size: 10,
  type: 'video/mp4',
  lastModified: null,
  sha256: null,
  partSize: 10,
  partCount: 1,
  status: 'complete',
};
const LINE = '1280×720 · H.264 · 25 fps · 0:02 · AAC 48 kHz stereo';
const ISSUES = [
  'The screens need 1920×1080; this file is 1280×720.',
  'The screens need 29.97 fps; this file is 25 fps.',
];

function file(media: InboxFileMedia): UploadFileInfo & InboxFileMedia {
  return { ...BASE, ...media };
}

describe('inbox media', () => {
  it('words the badge', () => {
    expect([0, 1, 2].map(specBadgeText)).toEqual(['Meets spec', '1 issue', '2 issues']);
  });

  it('shows the issues on demand, and says so to screen readers', () => {
    render(
      <FileMedia
        file={file({
          factsText: LINE,
          factsSource: 'server',
          check: { verdict: 'warn', issues: ISSUES },
          specApplies: true,
        })}
      />,
    );
    expect(screen.getByText(LINE)).toBeTruthy();
    const badge = screen.getByRole('button', { name: /^2 issues/ });
    expect(badge.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('list')).toBeNull();
    fireEvent.click(badge);
    expect(badge.getAttribute('aria-expanded')).toBe('true');
    const list = screen.getByRole('list');
    expect(badge.getAttribute('aria-controls')).toBe(list.id);
    expect(list.textContent).toContain(ISSUES[0]);
    expect(list.textContent).toContain(ISSUES[1]);
  });

  it('a file that meets its spec gets a plain badge; without a spec or facts, no badge', () => {
    const { rerender } = render(
      <FileMedia file={file({ factsText: LINE, check: { verdict: 'ok', issues: [] }, specApplies: true })} />,
    );
    expect(screen.getByTestId('spec-badge').textContent).toBe('Meets spec');
    expect(screen.queryByRole('button')).toBeNull();
    rerender(
      <FileMedia
        file={file({ factsText: LINE, check: { verdict: 'ok', issues: [] }, specApplies: false })}
      />,
    );
    expect(screen.queryByTestId('spec-badge')).toBeNull();
    rerender(<FileMedia file={file({})} />);
    expect(screen.queryByTestId('inbox-media')).toBeNull();
  });

  it("an unreadable file says so, muted, with no badge; the uploader's reading is marked", () => {
    const { rerender } = render(
      <FileMedia
        file={file({
          factsText: "Could not read this file's details",
          check: { verdict: 'unreadable', issues: [] },
          specApplies: true,
        })}
      />,
    );
    expect(screen.getByText("Could not read this file's details").className).toContain('--unreadable');
    expect(screen.queryByTestId('spec-badge')).toBeNull();
    rerender(
      <FileMedia
        file={file({
          factsText: LINE,
          factsSource: 'client',
          check: { verdict: 'ok', issues: [] },
          specApplies: true,
        })}
      />,
    );
    expect(screen.getByText(/as the uploader’s device read it/)).toBeTruthy();
  });
});
