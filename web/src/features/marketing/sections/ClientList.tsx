import { Link } from 'react-router';
import { site } from '../../../content/site';

/** The client-list section (SPEC §2): four paragraphs about who we produce for and the planner portal. */
export function ClientList({ id = 'clients' }: { id?: string }) {
  return (
    <section id={id} className="client-list" aria-labelledby={`${id}-title`} tabIndex={-1}>
      <h2 id={`${id}-title`}>Who we produce for</h2>
      <div className="client-list__grid">
        <article>
          <h3>Associations and medical societies</h3>
          <p>
            Annual congresses with a 3,000-seat general session, forty breakouts and continuing-education
            credits to track. We have run the audiovisual side of dental, nursing and pharmacy meetings for
            more than a decade, and we know that a dropped slide in a credit session is a compliance problem,
            not just an awkward moment.
          </p>
        </article>
        <article>
          <h3>Corporate meetings and sales kickoffs</h3>
          <p>
            Leadership offsites, partner days and the January kickoff that sets the tone for the year. One
            producer owns your show from the first site visit to load-out, writes the run of show with you and
            calls it from the booth, so the people on stage only have to think about their message.
          </p>
        </article>
        <article>
          <h3>Agencies, hotels and destination partners</h3>
          <p>
            Planners and destination management companies bring us in as their production team, under their
            brand or ours. We carry our own staging, LED, lighting and audio out of {site.offices[0].city} and{' '}
            {site.offices[1].city}, so quotes hold and the gear that shows up is the gear we tested.
          </p>
        </article>
        <article>
          <h3>Planners who want everything in one place</h3>
          <p>
            {site.meetingPlanner.name}, our web portal for conference planners, collects speaker
            presentations, runs registration and powers the audience response system, and every file lands
            directly with the operator who will play it.{' '}
            <Link to="/event_planner">See how the planner portal works</Link>.
          </p>
        </article>
      </div>
    </section>
  );
}
