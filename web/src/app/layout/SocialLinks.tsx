import { site } from '../../content/site';
import { SocialIcon } from '../../lib/SocialIcon';

/** The social icons of the header and the mobile menu: SVG glyphs inside links named for screen readers. */
export function SocialLinks({ className }: { className?: string }) {
  return (
    <ul className={className} aria-label="Social media">
      {site.social.map((s) => (
        <li key={s.name}>
          <a
            href={s.href}
            rel="noopener noreferrer"
            target="_blank"
            aria-label={`${s.name} (opens in a new tab)`}
          >
            <SocialIcon name={s.icon} />
          </a>
        </li>
      ))}
    </ul>
  );
}
