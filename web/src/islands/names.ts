/** The islands a prerendered marketing page can hold (islands/registry.ts maps each to its component). */
export type IslandName =
  | 'menu'
  | 'gallery'
  | 'contact-slot'
  | 'contact-form'
  | 'hottrends-signup'
  | 'scroll-hint'
  | 'getting-social';
