/**
 * The staff pages, code-split: each loads when first shown, after zod is set up for the CSP
 * (lib/zodFirst.ts), since their forms build schemas. web/src/app/staff mounts them inside the staff layout.
 */
import { lazyModule } from '../../lib/lazyModule';
import { afterZodSetup } from '../../lib/zodFirst';

const S = 'src/features/admin';

export const StoreManagerPage = lazyModule(
  `${S}/StoreManagerPage.tsx`,
  afterZodSetup(() => import('./StoreManagerPage')),
);
export const ProductsPage = lazyModule(
  `${S}/ProductsPage.tsx`,
  afterZodSetup(() => import('./ProductsPage')),
);
export const OrdersPage = lazyModule(
  `${S}/OrdersPage.tsx`,
  afterZodSetup(() => import('./OrdersPage')),
);
export const PullSheetPage = lazyModule(
  `${S}/PullSheetPage.tsx`,
  afterZodSetup(() => import('./PullSheetPage')),
);
export const PaymentTestPage = lazyModule(
  `${S}/PaymentTestPage.tsx`,
  afterZodSetup(() => import('./PaymentTestPage')),
);
export const UploadEventsPage = lazyModule(
  `${S}/UploadEventsPage.tsx`,
  afterZodSetup(() => import('./UploadEventsPage')),
);
export const StockPage = lazyModule(
  `${S}/StockPage.tsx`,
  afterZodSetup(() => import('./StockPage')),
);
// The overview's charts (visx) load with this page only, never on the public pages.
export const OverviewPage = lazyModule(
  `${S}/overview/OverviewPage.tsx`,
  afterZodSetup(() => import('./overview/OverviewPage')),
);
export const AuditPage = lazyModule(
  `${S}/AuditPage.tsx`,
  afterZodSetup(() => import('./AuditPage')),
);
export const StaffMembersPage = lazyModule(
  `${S}/members/StaffMembersPage.tsx`,
  afterZodSetup(() => import('./members/StaffMembersPage')),
);
