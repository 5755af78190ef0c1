import { Link } from 'react-router';
import { Island } from '../../../islands/Island';
import { Gallery } from '../gallery/Gallery';
import { creativeServicesGallery } from '../gallery/media';

/** SPEC §2 /creative_services: video production and presentations, and the video gallery. */
export default function CreativeServicesPage() {
  return (
    <article className="page">
      <header className="page__header">
        <p className="page__eyebrow">Creative Services</p>
        <h1>Video and presentations that hold a ballroom's attention</h1>
        <p className="page__lead">
          The screens behind your speakers are the biggest thing in the room. Our creative team writes,
          shoots, animates and edits everything that plays on them, and sits at the switcher during the show,
          so what you approved is exactly what the audience sees.
        </p>
      </header>

      <div className="page__columns">
        <section aria-labelledby="video-production">
          <h2 id="video-production">Video production</h2>
          <p>
            A strong opening video gets 2,000 people off their phones before the CEO walks out. We script it
            with you, shoot interviews at your offices or on a green screen in our Chicago studio, and finish
            it in the resolution and aspect ratio of the actual screens, whether that is a 16:9 projector or a
            9,000-pixel-wide LED wall.
          </p>
          <ul className="checklist">
            <li>Opening and closing videos, walk-in loops and countdowns</li>
            <li>Sponsor commercials and sponsor loops between sessions</li>
            <li>Speaker walk-ups, award nominee packages and tributes</li>
            <li>Same-day and overnight recap reels cut on site</li>
            <li>Customer testimonials and product launch reveals</li>
          </ul>
        </section>
        <section aria-labelledby="presentations">
          <h2 id="presentations">Presentation design</h2>
          <p>
            We build the master template for the meeting, rebuild speakers' decks on it so charts are legible
            from the back row, and add animation where it helps the story rather than decorates it. Decks
            arrive through the planner portal, are checked by a designer and are loaded on the show computers
            before rehearsal.
          </p>
          <ul className="checklist">
            <li>Meeting themes, PowerPoint and Keynote templates</li>
            <li>Deck clean-up, chart rebuilds and speaker notes</li>
            <li>Motion graphics for lower thirds and stings</li>
            <li>Speaker-ready room and on-site graphics operator</li>
          </ul>
        </section>
      </div>

      <section className="page__gallery" aria-labelledby="video-gallery-title">
        <h2 id="video-gallery-title">Recent work</h2>
        <p>
          A selection of {creativeServicesGallery.length} clips from recent meetings. Select one to play it;
          use the arrow keys to move between clips.
        </p>
        <Island
          name="gallery"
          component={Gallery}
          props={{ items: creativeServicesGallery, label: 'Video gallery', eager: 3 }}
        />
      </section>

      <aside className="page__cta">
        <h2>Have a meeting on the calendar?</h2>
        <p>
          Tell us the date and the screens; we will come back with a creative brief and a schedule that works
          backwards from your rehearsal.
        </p>
        <Link className="button-link" to="/contact#contact">
          Start a creative brief
        </Link>
      </aside>
    </article>
  );
}
