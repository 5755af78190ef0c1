/**
 * Every island's component, for the prerender (web/src/entry-server.tsx) and the marketing pages' entry
 * (web/src/marketing-entry.tsx). All are small; what is heavy behind them (the lightbox, the contact form) stays
 * code-split and loads on demand as before.
 */
import type { ComponentType } from 'react';
import { MobileMenu } from '../app/layout/MobileMenu';
import { ContactFormIsland } from '../features/marketing/contact/ContactFormIsland';
import { ContactFormSlot } from '../features/marketing/contact/ContactFormSlot';
import { Gallery } from '../features/marketing/gallery/Gallery';
import { HotTrendsSignup } from '../features/marketing/pages/HotTrendsSignup';
import { GettingSocial } from '../features/marketing/sections/GettingSocial';
import { ScrollDownHint } from '../features/marketing/sections/ScrollDownHint';
import type { IslandName } from './names';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each island takes its own props, read from the page
export const ISLANDS: Record<IslandName, ComponentType<any>> = {
  menu: MobileMenu,
  gallery: Gallery,
  'contact-slot': ContactFormSlot,
  'contact-form': ContactFormIsland,
  'hottrends-signup': HotTrendsSignup,
  'scroll-hint': ScrollDownHint,
  'getting-social': GettingSocial,
};
