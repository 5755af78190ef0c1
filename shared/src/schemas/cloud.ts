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
