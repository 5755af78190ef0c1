interface ImportMetaEnv {
  /** Where gallery media is served from (vite.config.ts sets it from MEDIA_BASE_URL); default /media. */
  readonly VITE_MEDIA_BASE_URL?: string;
}
