import { Link } from 'react-router';
import { site } from '../../../content/site';

const EFFECTIVE = 'May 25, 2018';

/** SPEC §2 /privacy: the full privacy policy, effective May 25, 2018. */
export default function PrivacyPage() {
  const [hq, second] = site.offices;
  return (
    <article className="page page--narrow legal">
      <header className="page__header">
        <h1>Privacy Policy</h1>
        <p className="legal__effective">
          Effective <time dateTime="2018-05-25">{EFFECTIVE}</time>
        </p>
      </header>

      <p>
        {site.name} (&ldquo;{site.shortName}&rdquo;, &ldquo;we&rdquo;, &ldquo;us&rdquo;) produces meetings,
        events and event video. This policy explains what information we collect through this website, our
        client upload portal and our online exhibitor A/V store, why we collect it, who we share it with, how
        long we keep it and the choices you have. It does not cover information we receive offline under a
        production contract, which is governed by that contract.
      </p>

      <h2>1. Who is responsible</h2>
      <p>
        The controller of your information is {site.name}, {hq?.street}, {hq?.city}, {hq?.region}{' '}
        {hq?.postalCode}, United States. You can reach us about privacy at{' '}
        <a href={`mailto:${site.email}`}>{site.email}</a> or <a href={site.phoneHref}>{site.phone}</a>.
      </p>

      <h2>2. What we collect</h2>
      <h3>Information you give us</h3>
      <ul>
        <li>
          <strong>Contact form and newsletter sign-up:</strong> first and last name, e-mail address, and
          optionally your phone number, company, job title and message, together with whether you asked for
          the Hot Trends newsletter.
        </li>
        <li>
          <strong>Client portal accounts:</strong> name, e-mail address, company, phone number and a password,
          which we store only as a salted one-way hash.
        </li>
        <li>
          <strong>Files you upload:</strong> presentations, videos and other event assets, with the project,
          event, session, speaker or sponsor details you enter with them. These files may contain personal
          information about the people who appear in them; please upload them only if you are entitled to
          share them with us.
        </li>
        <li>
          <strong>Exhibitor orders:</strong> company, purchaser and on-site contact names, e-mail addresses
          and phone numbers, billing address, booth and room, delivery and pickup times and the equipment
          ordered.
        </li>
      </ul>
      <h3>Information collected automatically</h3>
      <ul>
        <li>
          <strong>Server logs:</strong> IP address, date and time, page or file requested, browser type and
          the referring page, used to run and secure the service.
        </li>
        <li>
          <strong>Cookies and local storage:</strong> described in section 4.
        </li>
      </ul>
      <p>We do not collect information from third-party data brokers and we do not buy mailing lists.</p>

      <h2>3. How we use it</h2>
      <ul>
        <li>to answer your inquiry and prepare proposals you ask for;</li>
        <li>to send the Hot Trends newsletter if you signed up, with an unsubscribe link in every issue;</li>
        <li>
          to run the client portal: sign you in, receive and process your files and tell our team they
          arrived;
        </li>
        <li>
          to take, deliver, pick up and invoice exhibitor equipment orders and send order confirmations;
        </li>
        <li>to keep the services secure, prevent spam and fraud, and fix problems;</li>
        <li>to meet legal, tax and accounting obligations.</li>
      </ul>
      <p>
        Where the EU or UK General Data Protection Regulation applies, our legal bases are your consent
        (newsletter), the performance of a contract or steps you asked for before one (inquiries, portal
        accounts, orders), our legitimate interest in running a secure business (logs, spam prevention) and
        legal obligations (tax records).
      </p>

      <h2>4. Cookies and similar technologies</h2>
      <p>
        We use a small number of first-party cookies and browser storage, all needed for the service you are
        using:
      </p>
      <ul>
        <li>
          a session cookie that keeps you signed in to the client portal or the staff screens; it expires
          after 24 hours at the latest;
        </li>
        <li>
          browser storage that remembers the contents of your exhibitor cart and your order details until you
          finish or clear the order;
        </li>
        <li>a security token that protects forms against cross-site request forgery.</li>
      </ul>
      <p>
        We do not use advertising cookies or cross-site tracking. Our &lsquo;Getting Social&rsquo; section can
        show a feed from {site.socialFeed.name}; it is loaded only when you choose to show it, and from then
        on {site.socialFeed.name}&rsquo;s own privacy policy and cookies apply to it. You can block or delete
        cookies in your browser settings; the portal and the store will not work without their session and
        cart storage.
      </p>

      <h2>5. Card payments</h2>
      <p>
        Exhibitor payments are processed by our card processor, Stripe, Inc. Your card number, expiry date and
        security code are entered into the processor&rsquo;s secure payment field and go directly to the
        processor; they never reach or are stored on our servers. We receive and keep only the card brand, the
        last four digits, the amount and the processor&rsquo;s confirmation, which we need for receipts,
        refunds and accounting. The processor handles your card data under its own privacy policy and the PCI
        Data Security Standard.
      </p>

      <h2>6. Who we share it with</h2>
      <p>We do not sell or rent personal information. We share it only with:</p>
      <ul>
        <li>
          service providers who host our systems, store files, deliver e-mail, process payments or send our
          newsletter, under contracts that limit their use of it to providing that service;
        </li>
        <li>
          the meeting organizer you are working with, for files you upload for their event and orders you
          place in their event&rsquo;s store;
        </li>
        <li>authorities when the law requires it, or to protect our rights, our clients or the public.</li>
      </ul>

      <h2>7. How long we keep it</h2>
      <ul>
        <li>contact messages: three years after our last exchange, then deleted;</li>
        <li>newsletter subscriptions: until you unsubscribe;</li>
        <li>
          portal accounts: until you ask us to close the account, or after three years without a sign-in;
        </li>
        <li>
          uploaded files: for the event and 180 days after it, unless our contract with you says otherwise;
          unfinished uploads are removed after 7 days;
        </li>
        <li>orders and payment records: seven years, as tax law requires;</li>
        <li>server logs: 90 days.</li>
      </ul>

      <h2>8. Your rights</h2>
      <p>
        You may ask us to tell you what personal information we hold about you and give you a copy, correct
        it, delete it, restrict or object to its use, or send it to another provider in a portable format. You
        may withdraw consent to the newsletter at any time. California residents have the rights of the
        California Consumer Privacy Act, including to know, delete and correct, and we do not sell or share
        personal information for cross-context advertising. To use any of these rights, write to{' '}
        <a href={`mailto:${site.email}`}>{site.email}</a>; we answer within 30 days and will not treat you
        differently for asking. If you are in the EU or UK you may also complain to your data protection
        authority.
      </p>

      <h2>9. Security</h2>
      <p>
        Our sites are served over encrypted connections, passwords are stored as one-way hashes, staff access
        is limited to people who need it and recorded, and uploaded files are kept in access-controlled
        storage. No system is perfectly secure; if a breach affects your information we will tell you and the
        authorities as the law requires.
      </p>

      <h2>10. International transfers</h2>
      <p>
        We operate in the United States, and information you send us is processed there. Where we transfer
        personal information from the EU or UK, we rely on the safeguards the law provides, such as standard
        contractual clauses.
      </p>

      <h2>11. Children</h2>
      <p>
        Our services are meant for businesses and professionals. We do not knowingly collect information from
        children under 16; if you believe a child has sent us information, contact us and we will delete it.
      </p>

      <h2>12. Changes to this policy</h2>
      <p>
        We will post any change on this page with a new effective date, and tell portal users by e-mail about
        changes that affect them materially.
      </p>

      <h2>13. Contact</h2>
      <p>
        {site.name}, {hq?.street}, {hq?.city}, {hq?.region} {hq?.postalCode}; {second?.label}:{' '}
        {second?.street}, {second?.city}, {second?.region} {second?.postalCode}. E-mail{' '}
        <a href={`mailto:${site.email}`}>{site.email}</a>, phone <a href={site.phoneHref}>{site.phone}</a>, or
        use our <Link to="/contact#contact">contact form</Link>.
      </p>
    </article>
  );
}
