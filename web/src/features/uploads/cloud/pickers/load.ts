/**
 * Loads a provider's script or style sheet once per page, when its button is clicked (issue #29: not
 * when the form opens, so a provider that cannot be reached costs nothing until it is asked for). A load
 * that fails, or does not finish within LOAD_TIMEOUT_MS, rejects with ProviderUnreachable, so the form
 * can say that the provider could not be reached rather than that a file could not be saved.
 */
import { PickerError } from './types';

/** A provider's script or picker that could not be fetched: the network, or the provider, is down. */
export class ProviderUnreachable extends PickerError {
  override name = 'ProviderUnreachable';
}

/** ms a provider's script may take to load before it counts as unreachable. */
export const LOAD_TIMEOUT_MS = 20_000;

const loaded = new Map<string, Promise<void>>();

export function loadAsset(
  url: string,
  attributes: Record<string, string> = {},
  timeoutMs = LOAD_TIMEOUT_MS,
): Promise<void> {
  let pending = loaded.get(url);
  if (!pending) {
    pending = new Promise<void>((resolve, reject) => {
      const css = /\.css(\?|$)/.test(url);
      const element = css ? document.createElement('link') : document.createElement('script');
      if (element instanceof HTMLLinkElement) {
        element.rel = 'stylesheet';
        element.href = url;
      } else {
        element.src = url;
        element.async = true;
      }
      for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
      const fail = () => {
        clearTimeout(timer);
        loaded.delete(url);
        element.remove();
        reject(new ProviderUnreachable(`Could not load ${url}`));
      };
      // A script that neither loads nor fails (a stalled connection) would otherwise keep the button busy.
      const timer = setTimeout(fail, timeoutMs);
      element.addEventListener('load', () => {
        clearTimeout(timer);
        resolve();
      });
      element.addEventListener('error', fail);
      document.head.append(element);
    });
    loaded.set(url, pending);
  }
  return pending;
}
