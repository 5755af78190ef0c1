import { site } from '../../../content/site';

/** SPEC §2 /about: the title only. */
export default function AboutPage() {
  return (
    <article className="page page--title-only">
      <h1>About {site.name}</h1>
    </article>
  );
}
