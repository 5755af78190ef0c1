/** The Hot Trends newsletter archive (SPEC §2 /hottrends shows 10 issues, newest first). */
export interface HotTrendsIssue {
  /** 'YYYY-MM-DD', shown as 'MMM D, YYYY'. */
  date: string;
  title: string;
  summary: string;
}

export const hotTrendsIssues: readonly HotTrendsIssue[] = [
  {
    date: '2024-10-08',
    title: 'Captions for every session, without a stenographer in every room',
    summary:
      'What automatic captioning gets right in 2024, where it still stumbles on drug names and acronyms, and how we seed it with your glossary.',
  },
  {
    date: '2024-09-10',
    title: 'LED floors: worth it for a product reveal?',
    summary:
      'Costs, load-bearing limits and the two-hour rigging window most ballrooms allow, with photos from a launch we built in Orlando.',
  },
  {
    date: '2024-08-13',
    title: 'The hybrid session checklist we hand every moderator',
    summary:
      'Ten lines that keep remote attendees in the conversation, from repeating the question to looking at the right camera.',
  },
  {
    date: '2024-07-09',
    title: 'Audience response that people actually use',
    summary:
      'Three polling formats that lifted participation above 70% at association meetings this spring, and one that flopped.',
  },
  {
    date: '2024-06-11',
    title: 'Sponsor loops that sponsors renew',
    summary:
      'Fifteen seconds, one message, a QR code that works from the back row: what we learned measuring scans at four trade shows.',
  },
  {
    date: '2024-05-14',
    title: 'Speaker-ready rooms in the age of the last-minute deck',
    summary:
      'How a planner portal, a version number and a designer on call stopped the 7:55 a.m. USB stick hand-off.',
  },
  {
    date: '2024-04-09',
    title: 'Wireless microphones and the 600 MHz squeeze',
    summary:
      'Why some older systems are now illegal to use, how many channels fit in a downtown hotel, and what to ask your venue.',
  },
  {
    date: '2024-03-12',
    title: 'Designing slides for a 32:9 stage screen',
    summary:
      'Ultra-wide LED walls are everywhere; most decks are not. Templates, safe areas and when to let the speaker own the left third.',
  },
  {
    date: '2024-02-13',
    title: 'Streaming costs, line by line',
    summary:
      'A plain-language breakdown of a streamed general session budget, from encoders to the remote host, with the items you can skip.',
  },
  {
    date: '2024-01-09',
    title: 'Kickoff season: five looks for the January general session',
    summary:
      'Scenic ideas that travel well, reuse across cities and photograph better than a plain black drape.',
  },
];
