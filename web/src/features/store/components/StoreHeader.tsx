import { formatDateRange, storeOrderFormTitle } from '@avp/shared';
import { useState } from 'react';
import { site } from '../../../content/site';

/** Where store images (the staff form's 'Image' file names) are served from. */
export const STORE_IMAGE_BASE = '/media/stores/';

export interface HeaderStore {
  name: string;
  image: string | null;
  start_date: string;
  end_date: string;
  store_text: string;
}

/** The company's mark, as on the marketing header (the exhibitor pages hide that header). */
function ProductLogo() {
  return (
    <span className="store-header__brand">
      <svg viewBox="0 0 32 32" width="40" height="40" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="6" fill="#0d1b2a" />
        <path
          d="M8 24V8l16 16V8"
          fill="none"
          stroke="#f4a261"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="store-header__brand-name">{site.name}</span>
    </span>
  );
}

function EventLogo({ image, name }: { image: string; name: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return (
    <img
      className="store-header__event-logo"
      src={`${STORE_IMAGE_BASE}${encodeURIComponent(image)}`}
      alt={`${name} logo`}
      onError={() => setFailed(true)}
    />
  );
}

/** SPEC §2: product logo, the event logo when the store has an image, the event dates, title, header text. */
export function StoreHeader({ store, hideDates = false }: { store: HeaderStore; hideDates?: boolean }) {
  return (
    <header className="store-header">
      <div className="store-header__logos">
        <ProductLogo />
        {store.image ? <EventLogo image={store.image} name={store.name} /> : null}
      </div>
      {hideDates ? null : (
        <p className="store-header__dates">{formatDateRange(store.start_date, store.end_date)}</p>
      )}
      <h1 className="store-header__title">{storeOrderFormTitle(store.name)}</h1>
      {store.store_text ? <p className="store-header__text">{store.store_text}</p> : null}
    </header>
  );
}
