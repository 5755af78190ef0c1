import { site } from '../../../content/site';

/** SPEC §2 /event_planner: promotion of the external meeting-planning tool (the planner portal). */
export default function EventPlannerPage() {
  const tool = site.meetingPlanner;
  return (
    <article className="page">
      <header className="page__header">
        <p className="page__eyebrow">Planner Resources</p>
        <h1>{tool.name}: one portal for speakers, registration and audience response</h1>
        <p className="page__lead">
          Conference planners juggle hundreds of speakers, decks and deadlines. {tool.name} collects them in
          one place and hands them straight to the production team that runs your show.
        </p>
      </header>
      <div className="page__columns page__columns--three">
        <section aria-labelledby="planner-speakers">
          <h2 id="planner-speakers">Speaker content</h2>
          <p>
            Each speaker gets a personal upload link with their session time and room. Decks and videos are
            checked by our designers, versioned, and waiting on the right show computer before the
            speaker-ready room opens.
          </p>
        </section>
        <section aria-labelledby="planner-registration">
          <h2 id="planner-registration">Registration</h2>
          <p>
            Branded registration pages, discount codes, session selection and badge data, with live counts you
            can share with your board. Attendees get a confirmation and a calendar file in the same e-mail.
          </p>
        </section>
        <section aria-labelledby="planner-ars">
          <h2 id="planner-ars">Audience response</h2>
          <p>
            Polls, quizzes and moderated questions from any phone, shown on the main screen in your meeting's
            design. Results export per session, which makes continuing-education attendance easy to prove.
          </p>
        </section>
      </div>
      <aside className="page__cta">
        <h2>Try {tool.name}</h2>
        <p>
          Ask for a demo meeting set up with your own sessions, or sign in if your meeting already has an
          account.
        </p>
        <a className="button-link" href={tool.url} rel="noopener">
          Open {tool.name}
        </a>
      </aside>
    </article>
  );
}
