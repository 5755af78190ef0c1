/**
 * Site identity: the one place that names the company, its offices and its outside links.
 * Pages read from here; nothing else hard-codes a phone number or an address.
 */
export const site = {
  name: 'Northbeam Event Productions',
  shortName: 'Northbeam',
  /** The production address: canonical links, Open Graph and the sitemap use it (the server swaps in PUBLIC_URL). */
  url: 'https://www.northbeamevents.example',
  tagline: 'Event production, audiovisual and video for meetings that matter.',
  description:
    'Northbeam Event Productions stages general sessions, trade shows and galas, produces event video and presentations, and gives conference planners one portal for speaker content and registration.',
  foundingYear: 2004,
  phone: '(312) 555-0142',
  phoneHref: 'tel:+13125550142',
  /** E.164, for structured data. */
  phoneE164: '+1-312-555-0142',
  email: 'hello@northbeamevents.example',
  offices: [
    {
      name: 'Chicago',
      label: 'Chicago headquarters and warehouse',
      street: '1260 W Fulton Market, Suite 400',
      city: 'Chicago',
      region: 'IL',
      postalCode: '60607',
      country: 'US',
      phone: '(312) 555-0142',
      phoneE164: '+1-312-555-0142',
    },
    {
      name: 'Orlando',
      label: 'Orlando convention office',
      street: '9800 International Drive, Suite 210',
      city: 'Orlando',
      region: 'FL',
      postalCode: '32819',
      country: 'US',
      phone: '(407) 555-0187',
      phoneE164: '+1-407-555-0187',
    },
  ],
  social: [
    { name: 'LinkedIn', icon: 'linkedin', href: 'https://www.linkedin.com/company/northbeam-events' },
    { name: 'Instagram', icon: 'instagram', href: 'https://www.instagram.com/northbeamevents' },
    { name: 'YouTube', icon: 'youtube', href: 'https://www.youtube.com/@northbeamevents' },
    { name: 'Facebook', icon: 'facebook', href: 'https://www.facebook.com/northbeamevents' },
  ],
  /**
   * The 'Getting Social' feed: the Facebook page plugin's timeline, in an iframe that is created only when the
   * visitor asks for it (no request to Facebook before that). Its origin is allowed in the server's CSP frame-src.
   */
  socialFeed: {
    name: 'Facebook',
    origin: 'https://www.facebook.com',
    src: 'https://www.facebook.com/plugins/page.php?href=https%3A%2F%2Fwww.facebook.com%2Fnorthbeamevents&tabs=timeline&width=500&height=640&small_header=true&adapt_container_width=true&hide_cover=false&show_facepile=false',
  },
  externalAdminUrl: 'https://admin.northbeamevents.example',
  streamingProduct: { name: 'Northbeam Live', url: 'https://live.northbeamevents.example' },
  meetingPlanner: { name: 'Northbeam Planner', url: 'https://planner.northbeamevents.example' },
  /** Kept for callers of the first version of this file. */
  streamingProductUrl: 'https://live.northbeamevents.example',
  meetingPlannerUrl: 'https://planner.northbeamevents.example',
} as const;

export type Office = (typeof site.offices)[number];
export type SocialLink = (typeof site.social)[number];
