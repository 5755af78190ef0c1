import { useEffect, useState } from 'react';

/**
 * The scroll-down hint (SPEC §2 'Layout elements'): under the first screen, it says there is more below and
 * takes the visitor there; it hides once the page has been scrolled.
 */
export function ScrollDownHint({ target, label = 'Scroll down' }: { target: string; label?: string }) {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    const onScroll = () => setHidden(window.scrollY > 48);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return (
    <a
      className={hidden ? 'scroll-hint scroll-hint--hidden' : 'scroll-hint'}
      href={`#${target}`}
      onClick={(event) => {
        const element = document.getElementById(target);
        if (!element) return;
        event.preventDefault();
        const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
        element.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth' });
        element.focus({ preventScroll: true });
      }}
    >
      <span>{label}</span>
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
        <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
      </svg>
    </a>
  );
}
