import { site } from '../../../content/site';

/** SPEC §2 /online_meetings: promotion of the external streaming product. */
export default function OnlineMeetingsPage() {
  const product = site.streamingProduct;
  return (
    <article className="page">
      <header className="page__header">
        <p className="page__eyebrow">Online Meetings</p>
        <h1>Bring the people who could not travel into the room</h1>
        <p className="page__lead">
          {product.name} streams your general session and breakouts to remote attendees in a branded player,
          with live questions, polls and replays, produced by the same crew that runs the room.
        </p>
      </header>
      <div className="page__columns">
        <section aria-labelledby="live-what">
          <h2 id="live-what">What remote attendees get</h2>
          <ul className="checklist">
            <li>A broadcast-quality program mix, not a webcam pointed at the stage</li>
            <li>Slides side by side with the speaker, legible on a laptop</li>
            <li>Questions and polls that reach the moderator in the room</li>
            <li>Captions and on-demand replays within hours of each session</li>
            <li>Single sign-on with your registration list</li>
          </ul>
        </section>
        <section aria-labelledby="live-how">
          <h2 id="live-how">How we produce it</h2>
          <p>
            A dedicated streaming producer sits next to the show caller, cuts cameras for the online audience
            and talks to a remote host who keeps viewers engaged during breaks. Everything is recorded in
            isolation so sessions can be edited for your on-demand library.
          </p>
          <p>
            We test the venue's connection during the site visit and bring bonded cellular backup, because a
            hotel's internet is the one thing we do not control.
          </p>
        </section>
      </div>
      <aside className="page__cta">
        <h2>See {product.name}</h2>
        <p>
          Watch a sample event, try the attendee experience on your phone and read the technical requirements.
        </p>
        <a className="button-link" href={product.url} rel="noopener">
          Visit {product.name}
        </a>
      </aside>
    </article>
  );
}
