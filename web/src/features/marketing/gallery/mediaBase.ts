/** The media root: /media on this server, or MEDIA_BASE_URL when the build was given one (vite.config.ts). */
export const MEDIA_BASE = (import.meta.env.VITE_MEDIA_BASE_URL || '/media').replace(/\/+$/, '');

export function mediaUrl(folder: string, file: string): string {
  return `${MEDIA_BASE}/${folder ? `${folder}/` : ''}${file}`;
}

/** The splash pictures and the Open Graph image (build/media/generate.mjs, folder 'site'). */
export function sitePicture(name: string): { webp: string; webpSmall: string; jpg: string } {
  return {
    webp: mediaUrl('site', `${name}.webp`),
    webpSmall: mediaUrl('site', `${name}-360.webp`),
    jpg: mediaUrl('site', `${name}.jpg`),
  };
}
