/**
 * Loads a provider's script or style sheet once per page. A picker must open within the click that asked
 * for it (browsers block popups opened later), so the buttons load these ahead, when the form shows.
 */
const loaded = new Map<string, Promise<void>>();

export function loadAsset(url: string, attributes: Record<string, string> = {}): Promise<void> {
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
      element.addEventListener('load', () => resolve());
      element.addEventListener('error', () => {
        loaded.delete(url);
        element.remove();
        reject(new Error(`Could not load ${url}`));
      });
      document.head.append(element);
    });
    loaded.set(url, pending);
  }
  return pending;
}
