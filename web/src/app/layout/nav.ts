/** The site's main navigation: with the brand link home, every public page is one click away. */
export const NAV = [
  { to: '/creative_services', label: 'Creative Services' },
  { to: '/event_production', label: 'Event Production' },
  { to: '/online_meetings', label: 'Online Meetings' },
  { to: '/event_planner', label: 'Planner Resources' },
  { to: '/hottrends', label: 'Hot Trends' },
  { to: '/blog', label: 'Blog' },
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
] as const;
