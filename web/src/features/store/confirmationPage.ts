/**
 * The confirmation page's code-split module, declared apart from routes.tsx: the payment page preloads it,
 * and importing routes.tsx for that would make a cycle (routes.tsx loads the payment page).
 */
import { lazyModule } from '../../lib/lazyModule';
import { afterZodSetup } from '../../lib/zodFirst';

export const ConfirmationPage = lazyModule(
  'src/features/store/pages/ConfirmationPage.tsx',
  afterZodSetup(() => import('./pages/ConfirmationPage')),
);
