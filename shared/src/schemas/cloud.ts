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

export const ACCESS_TOKEN_INVALID =
  'This access token is not one a cloud provider issues: pick the file again.';

/**
 * An access token the server sends as `Authorization: Bearer …`: only what an HTTP header value can
 * carry without being changed or refused on the way (visible ASCII; no space, control character, CR/LF,
 * NUL or character beyond ASCII). Every provider's tokens (RFC 6750 b64token, JWTs, Dropbox's `sl.…`)
 * are of this kind; anything else is a client's mistake, answered at the schema rather than as a
 * provider that 'did not answer'.
 */
const accessToken = z
  .string()
  .min(1)
  .max(8192)
  .regex(/^[\x21-\x7e]+$/, ACCESS_TOKEN_INVALID);

/** A Microsoft Graph drive or item id: personal item ids carry a `!` (`D4648F06C91D9D3D!54927`). */
const graphId = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\w!.-]+$/, 'This is not a OneDrive id.');

/**
 * What the browser or the desktop app posts to start a server-side import: the provider, the provider's
 * file id or (Dropbox Chooser, Box or Graph links) a link on the provider's own hosts, the name, the size
 * when the picker knows it, and the access token the picker or the app's sign-in gave. A OneDrive file is
 * named by its drive (`driveId`) and its item (`fileId`), two fields, since both kinds of id may contain
 * `!`; older clients' one-field `<drive id>!<item id>` is still read where it splits only one way.
 */
export const cloudImportRequestSchema = z
  .object({
    provider: z.enum(CLOUD_PROVIDERS),
    fileId: z.string().min(1).max(512).optional(),
    driveId: graphId.optional(),
    link: z
      .url({ protocol: /^https?$/ })
      .max(4096)
      .optional(),
    name: z.string().trim().min(1).max(255),
    size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
    mimeType: z.string().max(255).optional(),
    accessToken: accessToken.optional(),
  })
  .refine((v) => v.fileId !== undefined || v.link !== undefined, {
    message: 'A file id or a link is required.',
    path: ['fileId'],
  })
  .refine((v) => v.driveId === undefined || (v.provider === 'onedrive' && v.fileId !== undefined), {
    message: 'A drive id goes with a OneDrive item id.',
    path: ['driveId'],
  });
export type CloudImportRequest = z.infer<typeof cloudImportRequestSchema>;

/**
 * A fresh token, or for a link pick (Dropbox's direct links last 4 hours) a fresh link, or both, for an
 * import waiting in needs_auth.
 */
export const cloudImportTokenSchema = z
  .object({
    accessToken: accessToken.optional(),
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
