/**
 * Where a cloud picker's sign-in popup comes back (/client/cloud-callback). Box's code flow returns a
 * `code` (or an `error`) and our `state` (a UUID) in the query: they are handed to the page that opened
 * the popup, on this origin only, and the popup closes. Any other answer is Microsoft's sign-in for
 * OneDrive, which MSAL's redirect bridge hands to MSAL in the opener.
 */
import { useEffect } from 'react';

export const CLOUD_CALLBACK_MESSAGE = 'avp-cloud-callback';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CloudCallbackMessage {
  type: typeof CLOUD_CALLBACK_MESSAGE;
  state: string;
  code: string | null;
  error: string | null;
}

export default function CloudCallbackPage() {
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    const state = query.get('state');
    if (!state || !UUID.test(state)) {
      void import('@azure/msal-browser/redirect-bridge')
        .then((bridge) => bridge.broadcastResponseToMainFrame())
        .catch(() => undefined);
      return;
    }
    if (!window.opener) return;
    const message: CloudCallbackMessage = {
      type: CLOUD_CALLBACK_MESSAGE,
      state,
      code: query.get('code'),
      error: query.get('error'),
    };
    (window.opener as Window).postMessage(message, window.location.origin);
    window.close();
  }, []);
  return (
    <main className="uploads-callback">
      <p role="status">Signing in… This window closes by itself.</p>
    </main>
  );
}
