import { BoxOAuth, OAuthConfig } from 'box-node-sdk';
import { BoxApiError } from 'box-node-sdk/box';
import { BaseUrls, BoxRetryStrategy, NetworkSession } from 'box-node-sdk/networking';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { AppError } from '../../http/errors.js';

export const BOX_NOT_CONFIGURED = 'Box is not set up on this server.';
export const BOX_CODE_REFUSED = 'Box did not accept this sign-in. Please try again.';

const codeSchema = z.object({ code: z.string().trim().min(1).max(512) });

/**
 * Box's picker needs an access token in the browser, and Box gives one only for an authorisation code
 * exchanged with the app's client secret, which must stay on the server. So the browser signs in to Box
 * in a popup (OAuth 2.0 code flow), and this exchanges the code, through box-node-sdk's BoxOAuth, for
 * the picker's token. The token goes back to the page (it is the user's own, for the picker) and later
 * with each picked file to the import.
 */
export async function exchangeBoxCode(
  config: Pick<Config, 'BOX_CLIENT_ID' | 'BOX_CLIENT_SECRET' | 'BOX_API_URL'>,
  input: unknown,
): Promise<{ accessToken: string; expiresIn: number }> {
  if (!config.BOX_CLIENT_ID || !config.BOX_CLIENT_SECRET)
    throw new AppError(400, 'cloud_unavailable', BOX_NOT_CONFIGURED);
  const { code } = codeSchema.parse(input);
  const oauth = new BoxOAuth({
    config: new OAuthConfig({ clientId: config.BOX_CLIENT_ID, clientSecret: config.BOX_CLIENT_SECRET }),
  });
  const session = new NetworkSession({
    baseUrls: new BaseUrls({ baseUrl: config.BOX_API_URL }),
    retryStrategy: new BoxRetryStrategy({ maxAttempts: 1, maxRetriesOnException: 0 }),
  });
  try {
    const token = await oauth.getTokensAuthorizationCodeGrant(code, session);
    if (!token.accessToken) throw new AppError(400, 'box_code_refused', BOX_CODE_REFUSED);
    return { accessToken: token.accessToken, expiresIn: token.expiresIn ?? 3600 };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof BoxApiError && error.responseInfo.statusCode < 500) {
      throw new AppError(400, 'box_code_refused', BOX_CODE_REFUSED);
    }
    throw new AppError(502, 'cloud_unavailable', 'Box did not answer. Please try again in a moment.');
  }
}
