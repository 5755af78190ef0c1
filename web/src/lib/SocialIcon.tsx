import type { ReactNode } from 'react';

/**
 * Our own simplified glyphs for the social networks (no third-party artwork). Decorative: the link around an
 * icon carries the accessible name, so each svg is aria-hidden.
 */
export type SocialIconName = 'linkedin' | 'instagram' | 'youtube' | 'facebook';

const GLYPHS: Record<SocialIconName, ReactNode> = {
  linkedin: (
    <>
      <rect x="2" y="2" width="20" height="20" rx="3" fill="currentColor" />
      <g fill="var(--social-icon-cut, #fff)">
        <circle cx="7.3" cy="7.2" r="1.6" />
        <rect x="5.9" y="9.8" width="2.8" height="8.2" />
        <path d="M10.8 9.8h2.6v1.2c.5-.8 1.5-1.4 2.8-1.4 2.2 0 3.1 1.4 3.1 3.8V18h-2.8v-4.2c0-1.1-.3-1.8-1.3-1.8s-1.6.8-1.6 1.9V18h-2.8z" />
      </g>
    </>
  ),
  instagram: (
    <>
      <rect x="3" y="3" width="18" height="18" rx="5" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="12" cy="12" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="17.2" cy="6.8" r="1.2" fill="currentColor" />
    </>
  ),
  youtube: (
    <>
      <rect x="1.5" y="5" width="21" height="14" rx="4" fill="currentColor" />
      <path d="M10 8.8v6.4l5.4-3.2z" fill="var(--social-icon-cut, #fff)" />
    </>
  ),
  facebook: (
    <>
      <circle cx="12" cy="12" r="10" fill="currentColor" />
      <path
        d="M13.3 22v-7.1h2.4l.4-2.8h-2.8v-1.8c0-.8.3-1.4 1.4-1.4h1.5V6.4c-.3 0-1.2-.1-2.2-.1-2.2 0-3.6 1.3-3.6 3.7v2.1H8v2.8h2.4V22z"
        fill="var(--social-icon-cut, #fff)"
      />
    </>
  ),
};

export function SocialIcon({ name, size = 24 }: { name: SocialIconName; size?: number }) {
  return (
    <svg
      className="social-icon"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
    >
      {GLYPHS[name]}
    </svg>
  );
}
