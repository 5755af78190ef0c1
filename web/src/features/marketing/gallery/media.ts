/**
 * Where media files are, and the names of their variants (build/media/generate.mjs writes them):
 * photos as '{name}.jpg' (1200 px fallback), '{base}-600.webp' and '{base}-1200.webp'; every item has a
 * '{base}_thumb.jpg' thumbnail (SPEC §2) and a '{base}_thumb.webp' beside it; videos are '{name}.mp4'.
 * Media comes from /media on this server, or from MEDIA_BASE_URL when the build was given one.
 */
import type { GalleryItem } from '@avp/shared';
import manifest from '../../../content/gallery.json';
import { mediaUrl } from './mediaBase';

export interface GalleryEntry extends GalleryItem {
  /** Caption and alternative text. */
  title: string;
  width: number;
  height: number;
}

export { MEDIA_BASE, mediaUrl } from './mediaBase';

export const creativeServicesGallery = manifest.creativeServices as GalleryEntry[];
export const eventProductionGallery = manifest.eventProduction as GalleryEntry[];

function base(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * SPEC §2's thumbnail name, '{base}_thumb.jpg'. The same rule as shared's `thumbnailName` (content.test.ts
 * checks they agree), written here because shared's lives beside the zod schemas, which the gallery pages
 * have no other use for.
 */
export function thumbnailName(name: string): string {
  return `${base(name)}_thumb.jpg`;
}

export function thumbJpg(item: GalleryItem): string {
  return mediaUrl(item.folder, thumbnailName(item.name));
}

export function thumbWebp(item: GalleryItem): string {
  return mediaUrl(item.folder, `${base(item.name)}_thumb.webp`);
}

export function fullUrl(item: GalleryItem): string {
  return mediaUrl(item.folder, item.name);
}

/** The responsive WebP set of a photo, for `srcset`. */
export function photoWebpSrcSet(item: GalleryEntry): string {
  const b = base(item.name);
  return `${mediaUrl(item.folder, `${b}-600.webp`)} ${item.width / 2}w, ${mediaUrl(item.folder, `${b}-1200.webp`)} ${item.width}w`;
}

/** Thumbnail size: 480 wide for landscape, 320 wide for portrait (480 high). */
export function thumbSize(item: GalleryEntry): { width: number; height: number } {
  const scale = 480 / Math.max(item.width, item.height);
  return { width: Math.round(item.width * scale), height: Math.round(item.height * scale) };
}
