import { Link } from 'react-router';
import { site } from '../../../content/site';
import { sitePicture } from '../gallery/mediaBase';
import { Island } from '../../../islands/Island';
import { ClientList } from '../sections/ClientList';
import { ScrollDownHint } from '../sections/ScrollDownHint';

const PANELS = [
  {
    to: '/creative_services',
    title: 'Creative Services',
    picture: 'panel-creative',
    text: 'Opening videos, sponsor commercials, speaker walk-ups and presentation design, written, shot and edited in house.',
  },
  {
    to: '/event_production',
    title: 'Event Production',
    picture: 'panel-event',
    text: 'Staging, lighting, audio, LED walls and show calling for general sessions, breakouts, trade shows and galas.',
  },
  {
    to: '/event_planner',
    title: 'Planner Resources',
    picture: 'panel-planner',
    text: 'A web portal for conference planners: speaker content, registration and audience response in one place.',
  },
] as const;

/** The splash of SPEC §2: three panels leading to the company's three lines of work, then who we work for. */
export default function HomePage() {
  return (
    <>
      <div className="splash">
        <h1 className="splash__title">{site.tagline}</h1>
        <p className="splash__lead">
          From {site.offices[0].city} and {site.offices[1].city}, {site.name} produces conferences, sales
          meetings, trade shows and galas across North America: one team for the stage, the screens, the sound
          and the stories you tell on them.
        </p>
        <ul className="splash__panels">
          {PANELS.map((panel, index) => {
            const picture = sitePicture(panel.picture);
            return (
              <li key={panel.to} className="splash__panel">
                <picture>
                  <source
                    type="image/webp"
                    srcSet={`${picture.webpSmall} 360w, ${picture.webp} 720w`}
                    sizes="(max-width: 839px) 92vw, 360px"
                  />
                  <img
                    src={picture.jpg}
                    alt=""
                    width="720"
                    height="450"
                    loading={index === 0 ? 'eager' : 'lazy'}
                    decoding="async"
                  />
                </picture>
                <h2>
                  <Link to={panel.to}>{panel.title}</Link>
                </h2>
                <p>{panel.text}</p>
              </li>
            );
          })}
        </ul>
        <Island name="scroll-hint" component={ScrollDownHint} props={{ target: 'clients' }} />
      </div>
      <ClientList id="clients" />
    </>
  );
}
