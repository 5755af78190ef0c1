/** SPEC §3 'Cloud pick result': what a cloud picker hands back for one chosen file. */
import { z } from 'zod';

export const CLOUD_PROVIDERS = ['google-drive', 'dropbox', 'box', 'onedrive'] as const;
export type CloudProvider = (typeof CLOUD_PROVIDERS)[number];

export const cloudPickResultSchema = z.object({
  link: z.url(),
  name: z.string().min(1),
  provider: z.enum(CLOUD_PROVIDERS).optional(),
  /** The drive service also returns the file's id and metadata. */
  id: z.string().min(1).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type CloudPickResult = z.infer<typeof cloudPickResultSchema>;

/**
 * What the browser or the desktop app posts to start a server-side import: the provider, the provider's
 * file id or (Dropbox Chooser, Box or Graph links) a link on the provider's own hosts, the name, the size
 * when the picker knows it, and the access token the picker or the app's sign-in gave.
 */
export const cloudImportRequestSchema = z
  .object({
    provider: z.enum(CLOUD_PROVIDERS),
    fileId: z.string().min(1).max(512).optional(),
    link: z
      .url({ protocol: /^https?$/ })
      .max(4096)
      .optional(),
    name: z.string().trim().min(1).max(255),
    size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
    mimeType: z.string().max(255).optional(),
    accessToken: z.string().min(1).max(8192).optional(),
  })
  .refine((v) => v.fileId !== undefined || v.link !== undefined, {
    message: 'A file id or a link is required.',
    path: ['fileId'],
  });
export type CloudImportRequest = z.infer<typeof cloudImportRequestSchema>;

/**
 * A fresh token, or for a link pick (Dropbox's direct links last 4 hours) a fresh link, or both, for an
 * import waiting in needs_auth.
 */
export const cloudImportTokenSchema = z
  .object({
    accessToken: z.string().min(1).max(8192).optional(),
    link: z
      .url({ protocol: /^https?$/ })
      .max(4096)
      .optional(),
  })
  .refine((v) => v.accessToken !== undefined || v.link !== undefined, {
    message: 'A token or a link is required.',
    path: ['accessToken'],
  });
export type CloudImportToken = z.infer<typeof cloudImportTokenSchema>;
