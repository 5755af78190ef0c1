import { describe, expect, it } from 'vitest';
import * as shared from './index.js';

describe('the package entry exports the whole public API', () => {
  it.each([
    // routes, constants, messages
    'isKnownRoute',
    'SESSION_MAX_SECONDS',
    'UPLOAD_PART_SIZE',
    'PAGE_NOT_FOUND',
    'paymentFailed',
    // rules
    'isValidEmail',
    'isValidOrderEmail',
    'isValidPhone',
    'isValidOrderPhone',
    'searchStores',
    'listedStores',
    'priceOrder',
    'isEarlyBird',
    'percentOfHalfUp',
    'isStoreClosed',
    'effectiveCutoff',
    'deliveryDateRange',
    'pickupDateRange',
    'defaultSchedule',
    'isWithinRange',
    'setCartCount',
    'isSessionExpired',
    'isDateOnly',
    'addDays',
    'dateInZone',
    // formatting and uploads
    'formatPrice',
    'formatDate',
    'formatDateRange',
    'truncateFileName',
    'formatBytes',
    'formatSpeed',
    'formatTimeLeft',
    'partSizeFor',
    'planUpload',
    'partRange',
    'missingParts',
    // media facts (issue #30)
    'checkMediaFacts',
    'describeMediaFacts',
    'MEDIA_UNREADABLE',
    'mediaSpecSchema',
    // schemas
    'fieldErrors',
    'contactFormSchema',
    'newsletterFormSchema',
    'loginFormSchema',
    'registrationSchema',
    'passwordPolicySchema',
    'forgotPasswordSchema',
    'uploadFormSchema',
    'toSessionDateTime',
    'quantitySchema',
    'cartCountSchema',
    'orderCustomerInfoSchema',
    'checkoutFormSchema',
    'payNowSchema',
    'storeFormSchema',
    'storeSchema',
    'productSchema',
    'cartItemSchema',
    'paymentIntentSchema',
    'adminUserInfoSchema',
    'clientUserSchema',
    'cloudPickResultSchema',
    'galleryItemSchema',
    'sessionTokenInfoSchema',
    'uploadSubmissionSchema',
  ] as const)('%s', (name) => {
    expect(shared[name]).toBeDefined();
  });

  it('keeps the configured dayjs instance internal', () => {
    expect('dayjs' in shared).toBe(false);
  });
});
