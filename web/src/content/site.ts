/**
 * Site identity: the one place that names the company, its offices and its outside links.
 * Pages read from here; nothing else hard-codes a phone number or an address.
 */
export const site = {
  name: 'Northbeam Event Productions',
  shortName: 'Northbeam',
  tagline: 'Event production, audiovisual and video for meetings that matter.',
  phone: '(312) 555-0142',
  phoneHref: 'tel:+13125550142',
  email: 'hello@northbeamevents.example',
  offices: [
    {
      name: 'Chicago',
      street: '1260 W Fulton Market, Suite 400',
      city: 'Chicago',
      region: 'IL',
      postalCode: '60607',
      country: 'US',
    },
    {
      name: 'Orlando',
      street: '9800 International Drive, Suite 210',
      city: 'Orlando',
      region: 'FL',
      postalCode: '32819',
      country: 'US',
    },
  ],
  social: [
    { name: 'LinkedIn', href: 'https://www.linkedin.com/company/northbeam-events' },
    { name: 'Instagram', href: 'https://www.instagram.com/northbeamevents' },
    { name: 'YouTube', href: 'https://www.youtube.com/@northbeamevents' },
    { name: 'Facebook', href: 'https://www.facebook.com/northbeamevents' },
  ],
  externalAdminUrl: 'https://admin.northbeamevents.example',
  streamingProductUrl: 'https://live.northbeamevents.example',
  meetingPlannerUrl: 'https://planner.northbeamevents.example',
} as const;

export type Office = (typeof site.offices)[number];
