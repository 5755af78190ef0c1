import { useCallback, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { NAV } from './nav';
import { SocialLinks } from './SocialLinks';

const FOCUSABLE = 'a[href], button:not([disabled]), [tabindex]:not([tabindex="-1"])';
// A fixed id rather than useId: the menu is hydrated as an island of its own (islands/Island.tsx).
const PANEL_ID = 'mobile-menu';

const normalise = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path).toLowerCase();

/**
 * The menu for narrow screens (SPEC §2 'mobile menu'): a modal panel. While it is open the focus stays
 * inside it (Tab and Shift+Tab wrap around), Escape or the close button closes it, and the focus returns to
 * the menu button. Following a link closes it too (so a page the browser restores from its back-forward cache
 * shows it closed). Written by hand rather than with the widget kit's react-aria dialogs, to keep the first
 * load of every page small. Its links are plain ones: no router, as on a marketing page there is none.
 */
export function MobileMenu({ current }: { current?: string }) {
  const [open, setOpen] = useState(false);
  const panelId = PANEL_ID;
  const toggle = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const here = current === undefined ? undefined : normalise(current);

  const close = useCallback((restoreFocus: boolean) => {
    setOpen(false);
    if (restoreFocus) requestAnimationFrame(() => toggle.current?.focus());
  }, []);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !toggle.current?.contains(target)) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.body.classList.add('menu-open');
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.body.classList.remove('menu-open');
    };
  }, [open, close]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <>
      <button
        ref={toggle}
        type="button"
        className="menu-button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => (open ? close(true) : setOpen(true))}
      >
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
          <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
        </svg>
        <span className="menu-button__label">Menu</span>
      </button>
      {open ? (
        <div className="mobile-menu__backdrop">
          <div
            ref={panel}
            id={panelId}
            className="mobile-menu"
            role="dialog"
            aria-modal="true"
            aria-label="Menu"
            onKeyDown={onKeyDown}
          >
            <div className="mobile-menu__top">
              <button type="button" className="mobile-menu__close" onClick={() => close(true)}>
                <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
                  <path
                    d="M6 6l12 12M18 6L6 18"
                    stroke="currentColor"
                    strokeWidth="2.2"
                    strokeLinecap="round"
                  />
                </svg>
                Close menu
              </button>
            </div>
            <nav aria-label="Site">
              <ul className="mobile-menu__links">
                {NAV.map((item) => (
                  <li key={item.to}>
                    <a
                      href={item.to}
                      aria-current={here === normalise(item.to) ? 'page' : undefined}
                      onClick={() => setOpen(false)}
                    >
                      {item.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
            <SocialLinks className="mobile-menu__social" />
          </div>
        </div>
      ) : null}
    </>
  );
}
