import { formatDate, HOT_TRENDS_ARCHIVE_COUNT } from '@avp/shared';
import { hotTrendsIssues } from '../../../content/hottrends';
import { Island } from '../../../islands/Island';
import { HotTrendsSignup } from './HotTrendsSignup';

/** SPEC §2 /hottrends: the newsletter archive (10 issues) and a button opening the sign-up dialog. */
export default function HotTrendsPage() {
  const issues = hotTrendsIssues.slice(0, HOT_TRENDS_ARCHIVE_COUNT);
  return (
    <article className="page">
      <header className="page__header">
        <p className="page__eyebrow">Hot Trends</p>
        <h1>Hot Trends: event technology, one short e-mail a month</h1>
        <p className="page__lead">
          What is working on stage, in hybrid meetings and on the show floor, written by the producers and
          engineers who run our shows. Five minutes to read, no sales pitch.
        </p>
        <Island name="hottrends-signup" component={HotTrendsSignup} props={{}} />
      </header>
      <section aria-labelledby="archive-title">
        <h2 id="archive-title">Archive</h2>
        <ol className="archive" reversed>
          {issues.map((issue) => (
            <li key={issue.date} className="archive__issue">
              <h3>{issue.title}</h3>
              <p className="archive__date">
                <time dateTime={issue.date}>{formatDate(issue.date)}</time>
              </p>
              <p>{issue.summary}</p>
            </li>
          ))}
        </ol>
      </section>
    </article>
  );
}
