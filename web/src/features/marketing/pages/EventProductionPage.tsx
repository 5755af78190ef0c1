import { Link } from 'react-router';
import { Island } from '../../../islands/Island';
import { Gallery } from '../gallery/Gallery';
import { eventProductionGallery } from '../gallery/media';

/** SPEC §2 /event_production: audiovisual and event management, and the photo gallery. */
export default function EventProductionPage() {
  return (
    <article className="page">
      <header className="page__header">
        <p className="page__eyebrow">Event Production</p>
        <h1>Audiovisual and event management from load-in to load-out</h1>
        <p className="page__lead">
          We design the room, bring the equipment, crew the show and call every cue. One producer is your
          contact from the first walkthrough until the last truck leaves the dock.
        </p>
      </header>

      <div className="page__columns">
        <section aria-labelledby="audiovisual">
          <h2 id="audiovisual">Audiovisual</h2>
          <p>
            Our inventory is owned, maintained and tested in our Chicago and Orlando warehouses, so the
            equipment on your quote is the equipment that arrives.
          </p>
          <ul className="checklist">
            <li>Scenic staging, risers, lecterns and custom set pieces</li>
            <li>LED walls, projection and confidence monitors</li>
            <li>Line-array audio, wireless microphones and recording</li>
            <li>Intelligent lighting, uplighting and stage wash</li>
            <li>Multi-camera image magnification and streaming feeds</li>
            <li>Breakout room packages and exhibitor booth rentals</li>
          </ul>
        </section>
        <section aria-labelledby="event-management">
          <h2 id="event-management">Event management</h2>
          <p>
            Good shows are planned on paper. We draw the room in CAD, write the run of show with you, schedule
            the crew and rehearsals, and manage the venue's rigging and power requirements so there are no
            surprises on show day.
          </p>
          <ul className="checklist">
            <li>Site visits, floor plans and rigging plots</li>
            <li>Run of show, rehearsal schedule and speaker briefings</li>
            <li>Show calling, stage management and crew leads</li>
            <li>Union labour coordination and venue liaison</li>
            <li>Trade-show A/V ordering for your exhibitors</li>
          </ul>
        </section>
      </div>

      <section className="page__gallery" aria-labelledby="photo-gallery-title">
        <h2 id="photo-gallery-title">From the show floor</h2>
        <p>
          {eventProductionGallery.length} photos from general sessions, breakouts, galas and exhibit halls we
          have produced. Select a photo to enlarge it; use the arrow keys to move through the gallery.
        </p>
        <Island
          name="gallery"
          component={Gallery}
          props={{ items: eventProductionGallery, label: 'Photo gallery', eager: 4 }}
        />
      </section>

      <aside className="page__cta">
        <h2>Planning a general session or a full conference?</h2>
        <p>Send us the venue and the dates and we will put a producer on the walkthrough.</p>
        <Link className="button-link" to="/contact#contact">
          Ask for a walkthrough
        </Link>
      </aside>
    </article>
  );
}
