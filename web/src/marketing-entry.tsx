/**
 * The script of a prerendered marketing page (build/scripts/prerender.mjs links it in place of main.tsx). No
 * router, no app shell, and no React on the first load: the page is the HTML the build wrote, its links are
 * plain navigations to other prerendered pages, and each interactive part, an island (islands/Island.tsx),
 * hydrates on a root of its own (islands/hydrate.tsx) when the visitor reaches for it:
 * - pointed at, touched or focused: hydration starts, so it is usually done by the click;
 * - a click on one of its buttons, or a form submitted, before it is done: held, then replayed once it is;
 * - the contact panel's form slot: when it nears the screen (it then fetches the form, as before);
 * - the scroll-down hint: on the first scroll too, since it hides once the page has been scrolled.
 * Links inside an island are never held: without the island they still go where they say.
 */
import './app/styles.css';
import './features/marketing/marketing.css';
import type { IslandName } from './islands/names';

// The page may have been prerendered in an earlier year.
const year = String(new Date().getFullYear());
for (const element of document.querySelectorAll<HTMLElement>('[data-current-year]')) {
  if (element.textContent !== year) element.textContent = year;
}

// Typed by the islands' names, so a renamed island cannot silently lose its trigger.
const ON_SIGHT = new Set<string>(['contact-slot'] satisfies IslandName[]);
const ON_SCROLL = new Set<string>(['scroll-hint'] satisfies IslandName[]);

const started = new WeakMap<HTMLElement, Promise<void>>();
const live = new WeakSet<HTMLElement>();

function hydrate(island: HTMLElement): Promise<void> {
  let done = started.get(island);
  if (!done) {
    done = import('./islands/hydrate')
      .then(({ hydrateIsland }) => hydrateIsland(island))
      .then(() => void live.add(island));
    // A failed load (a deploy, a flaky network) may succeed on the next attempt.
    done.catch(() => started.delete(island));
    started.set(island, done);
  }
  return done;
}

function holdUntilLive(island: HTMLElement, event: Event) {
  if (live.has(island)) return;
  let replay: (() => void) | undefined;
  if (event.type === 'submit' && event.target instanceof HTMLFormElement) {
    const form = event.target;
    replay = () => form.requestSubmit();
  } else if (event.target instanceof Element) {
    const button = event.target.closest('button');
    if (button && island.contains(button)) replay = () => button.click();
  }
  if (!replay) return;
  event.preventDefault();
  event.stopPropagation();
  void hydrate(island).then(replay, () => undefined);
}

for (const island of document.querySelectorAll<HTMLElement>('[data-island]')) {
  const name = island.dataset.island ?? '';
  if (ON_SIGHT.has(name) && typeof IntersectionObserver !== 'undefined') {
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        void hydrate(island);
      },
      { rootMargin: '300px 0px' },
    );
    // The island's box takes no part in the layout (display: contents), so it is its content that is seen.
    observer.observe(island.firstElementChild ?? island);
    continue;
  }
  const warm = () => void hydrate(island).catch(() => undefined);
  for (const type of ['pointerover', 'focusin', 'touchstart'])
    island.addEventListener(type, warm, { once: true, passive: true });
  if (ON_SCROLL.has(name)) window.addEventListener('scroll', warm, { once: true, passive: true });
  for (const type of ['click', 'submit'])
    island.addEventListener(type, (event) => holdUntilLive(island, event), { capture: true });
}
