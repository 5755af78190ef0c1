import * as initialSchema from './0001-initial-schema.js';
import * as orderCard from './0002-order-card.js';
import * as staffRefunds from './0003-staff-refunds.js';
import * as orderPaymentReview from './0004-order-payment-review.js';
import * as uploadClaims from './0005-upload-claims.js';
import * as clientLog from './0006-client-log.js';
import * as fileImports from './0007-file-imports.js';
import * as storeVersion from './0008-store-version.js';
import * as uploadEvents from './0009-upload-events.js';
import * as stock from './0010-stock.js';
import * as staffRoles from './0011-staff-roles.js';
import * as secondFactors from './0012-second-factors.js';
import * as fileReviews from './0013-file-reviews.js';
import type { MigrationContext } from './types.js';

export type { MigrationContext };

export interface MigrationModule {
  up(params: { context: MigrationContext }): Promise<void>;
  down(params: { context: MigrationContext }): Promise<void>;
}

/**
 * Every migration, in order. Listed by import rather than found by globbing the folder, so the same list
 * works from src/ (tsx, vitest) and from dist/ (node) without caring about file extensions.
 * Names are permanent: they are what the meta table records.
 */
export const MIGRATIONS: ReadonlyArray<{ name: string; module: MigrationModule }> = [
  { name: '0001-initial-schema', module: initialSchema },
  { name: '0002-order-card', module: orderCard },
  { name: '0003-staff-refunds', module: staffRefunds },
  { name: '0004-order-payment-review', module: orderPaymentReview },
  { name: '0005-upload-claims', module: uploadClaims },
  { name: '0006-client-log', module: clientLog },
  { name: '0007-file-imports', module: fileImports },
  { name: '0008-store-version', module: storeVersion },
  { name: '0009-upload-events', module: uploadEvents },
  { name: '0010-stock', module: stock },
  { name: '0011-staff-roles', module: staffRoles },
  { name: '0012-second-factors', module: secondFactors },
  { name: '0013-file-reviews', module: fileReviews },
];
