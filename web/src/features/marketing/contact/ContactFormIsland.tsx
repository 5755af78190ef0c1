import { Suspense } from 'react';
import type { ContactFormProps } from './ContactForm';
import { LazyContactForm } from './lazy';

/**
 * The contact form where a page shows it from the start (/blog's newsletter sign-up), as an island: its code
 * is loaded before the island hydrates (marketing-entry.tsx), and until then the prerendered form stays put.
 */
export function ContactFormIsland(props: ContactFormProps) {
  return (
    <Suspense fallback={null}>
      <LazyContactForm {...props} />
    </Suspense>
  );
}
