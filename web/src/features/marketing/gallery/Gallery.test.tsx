import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupUser } from '../../../ui/test-utils';
import { Gallery } from './Gallery';
import { creativeServicesGallery, eventProductionGallery, type GalleryEntry } from './media';

const photos = eventProductionGallery.slice(0, 3);

// The lightbox is code-split: load its module once on the real clock, so opening it later is quick.
beforeAll(async () => {
  await import('./Lightbox');
});
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

async function openFirst(items: readonly GalleryEntry[]) {
  const user = setupUser();
  await act(async () => {
    render(<Gallery items={items} label="Photo gallery" />);
  });
  const thumbs = within(screen.getByRole('list', { name: 'Photo gallery' })).getAllByRole('button');
  thumbs[0]?.focus();
  await act(async () => {
    await user.keyboard('{Enter}');
  });
  await screen.findByRole('dialog');
  return { user, thumbs };
}

describe('Gallery and lightbox (SPEC §2, §4)', () => {
  it('shows _thumb.jpg thumbnails with a WebP source, their size set', async () => {
    await act(async () => {
      render(<Gallery items={photos} label="Photo gallery" />);
    });
    const img = document.querySelector('img');
    expect(img?.getAttribute('src')).toBe('/media/event_production/ep-001_thumb.jpg');
    expect(img?.getAttribute('width')).toBe('480');
    expect(img?.getAttribute('height')).toBe('320');
    expect(document.querySelector('source')?.getAttribute('srcset')).toBe(
      '/media/event_production/ep-001_thumb.webp',
    );
  });

  it('opens on a thumbnail, moves with the arrow keys and the buttons, wraps around', async () => {
    const { user } = await openFirst(photos);
    const caption = () => screen.getByRole('dialog').querySelector('figcaption')?.textContent ?? '';
    expect(caption()).toContain(`${photos[0]?.title}`);
    expect(caption()).toContain('1 / 3');
    await user.keyboard('{ArrowRight}');
    expect(caption()).toContain('2 / 3');
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(caption()).toContain('3 / 3');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(caption()).toContain('1 / 3');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(caption()).toContain('3 / 3');
    const image = screen.getByRole('img', { name: photos[2]?.title ?? '' });
    expect(image.getAttribute('src')).toBe('/media/event_production/ep-003.jpg');
  });

  it('closes with Escape and puts the focus on the thumbnail of the item shown last', async () => {
    const { user, thumbs } = await openFirst(photos);
    await user.keyboard('{ArrowRight}');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(document.activeElement).toBe(thumbs[1]);
  });

  it('closes with the close button', async () => {
    const { user, thumbs } = await openFirst(photos);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(document.activeElement).toBe(thumbs[0]);
  });

  it('plays a video item as mp4 with its thumbnail as poster', async () => {
    await openFirst(creativeServicesGallery.slice(0, 2));
    const video = screen.getByRole('dialog').querySelector('video');
    expect(video?.getAttribute('poster')).toBe('/media/creative_services/cs-01_thumb.jpg');
    expect(video?.querySelector('source')?.getAttribute('src')).toBe('/media/creative_services/cs-01.mp4');
    expect(video?.querySelector('source')?.getAttribute('type')).toBe('video/mp4');
  });
});
