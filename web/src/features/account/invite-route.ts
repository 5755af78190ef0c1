/** The staff invitation page, loaded on demand; the app layer's staff routes mount it outside the sign-in gate. */
import { lazyModule } from '../../lib/lazyModule';

export const StaffInvitePage = lazyModule(
  'src/features/account/InvitePage.tsx',
  () => import('./InvitePage'),
);
