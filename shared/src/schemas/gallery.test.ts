import { describe, expect, it } from 'vitest';
import { galleryItemSchema, thumbnailName } from './gallery.js';

describe('SPEC §3 Gallery item and §2 thumbnails named with a _thumb.jpg suffix', () => {
  it.each([
    [{ type: 'image', name: 'stage.jpg', orient: 'landscape', folder: 'event_production' }, true],
    [{ type: 'video', name: 'reel.mp4', orient: 'portrait', folder: 'creative_services' }, true],
    [{ type: 'audio', name: 'a.mp3', orient: '', folder: 'x' }, false],
    [{ type: 'image', name: '', orient: '', folder: 'x' }, false],
  ] as const)('%j -> %s', (input, ok) => {
    expect(galleryItemSchema.safeParse(input).success).toBe(ok);
  });

  it.each([
    ['stage.jpg', 'stage_thumb.jpg'],
    ['reel.mp4', 'reel_thumb.jpg'],
    ['gala.2024.png', 'gala.2024_thumb.jpg'],
    ['noext', 'noext_thumb.jpg'],
    ['.hidden', '.hidden_thumb.jpg'],
  ] as const)('%s -> %s', (name, thumb) => {
    expect(thumbnailName(name)).toBe(thumb);
  });
});
