import { GETTING_SOCIAL } from '@avp/shared';
import { useState } from 'react';
import { site } from '../../../content/site';
import { SocialIcon } from '../../../lib/SocialIcon';

/**
 * 'Getting Social' (SPEC §2): links to our channels and the embedded feed. The feed is a third-party page,
 * so it is created only when the visitor asks for it: until then the page makes no request to that service.
 */
export function GettingSocial() {
  const [showFeed, setShowFeed] = useState(false);
  const feed = site.socialFeed;
  return (
    <section className="getting-social" aria-labelledby="getting-social-title">
      <h2 id="getting-social-title">{GETTING_SOCIAL}</h2>
      <p>
        Load-in time-lapses, behind-the-scenes stage builds and the occasional blooper from the booth. Follow
        along wherever you spend your scrolling time.
      </p>
      <ul className="getting-social__links">
        {site.social.map((s) => (
          <li key={s.name}>
            <a href={s.href} target="_blank" rel="noopener noreferrer">
              <SocialIcon name={s.icon} />
              <span>
                {s.name}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </span>
            </a>
          </li>
        ))}
      </ul>
      <div className="getting-social__feed">
        {showFeed ? (
          <iframe
            title={`Our latest ${feed.name} posts`}
            src={feed.src}
            width="500"
            height="640"
            loading="lazy"
            referrerPolicy="strict-origin-when-cross-origin"
            sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox"
          />
        ) : (
          <div className="getting-social__consent">
            <p>
              Our latest posts are shown by {feed.name}. Loading them connects your browser to {feed.name},
              which may set its own cookies.
            </p>
            <button type="button" className="button-link" onClick={() => setShowFeed(true)}>
              Show our latest {feed.name} posts
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
