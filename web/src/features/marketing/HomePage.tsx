import { Link } from 'react-router';
import { site } from '../../content/site';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

const PANELS = [
  {
    to: '/creative_services',
    title: 'Creative Services',
    text: 'Sponsor commercials, opening videos, speaker support and presentation design, produced in house.',
  },
  {
    to: '/event_production',
    title: 'Event Production',
    text: 'Staging, lighting, audio, LED walls and show calling for general sessions, breakouts and trade shows.',
  },
  {
    to: '/event_planner',
    title: 'Planner Resources',
    text: 'A web portal for conference planners: speaker content, registration and audience response in one place.',
  },
] as const;

/** The splash of SPEC §2: three panels leading to the company's three lines of work. */
export function HomePage() {
  useDocumentTitle();
  return (
    <div className="splash">
      <h1 className="splash__title">{site.tagline}</h1>
      <ul className="splash__panels">
        {PANELS.map((panel) => (
          <li key={panel.to} className="splash__panel">
            <h2>
              <Link to={panel.to}>{panel.title}</Link>
            </h2>
            <p>{panel.text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
