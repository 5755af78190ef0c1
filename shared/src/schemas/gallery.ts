/** SPEC §3 'Gallery item' and the lightbox's thumbnail naming (SPEC §2 'Layout elements'). */
import { z } from 'zod';

/** The lightbox shows images or mp4 video. */
export const GALLERY_ITEM_TYPES = ['image', 'video'] as const;

export const galleryItemSchema = z.object({
  type: z.enum(GALLERY_ITEM_TYPES),
  name: z.string().min(1),
  /** Orientation of the media, e.g. 'landscape' or 'portrait'; the spec does not list the values. */
  orient: z.string(),
  folder: z.string(),
});
export type GalleryItem = z.infer<typeof galleryItemSchema>;

/** Thumbnails sit next to their media, extension replaced by '_thumb.jpg' ('a.mp4' -> 'a_thumb.jpg'). */
export function thumbnailName(name: string): string {
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  return `${base}_thumb.jpg`;
}
