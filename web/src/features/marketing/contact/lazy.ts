import { lazyModule } from '../../../lib/lazyModule';
import { afterZodSetup } from '../../../lib/zodFirst';

/** The contact form (react-hook-form, zod and the widget kit), loaded only where it is shown. */
export const LazyContactForm = lazyModule(
  'src/features/marketing/contact/ContactForm.tsx',
  afterZodSetup(() => import('./ContactForm')),
);

/** The Hot Trends sign-up dialog (the contact form in newsletter mode). */
export const LazyNewsletterDialog = lazyModule(
  'src/features/marketing/contact/NewsletterDialog.tsx',
  afterZodSetup(() => import('./NewsletterDialog')),
);
