import { formatDateRange, listedStores, searchStores, STORE_SEARCH_MIN_EXCLUSIVE } from '@avp/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import '../store.css';
import { Button, TextField } from '../../../ui';
import { StoreHeader } from '../components/StoreHeader';
import { clearCart } from '../state';
import { useStoreList } from '../useStoreData';

export const LOADING_STORES = 'Loading stores…';
export const STORES_FAILED = 'The list of stores could not be loaded.';

/**
 * /exhibitor_order (SPEC §2): find the event's store. Results appear only once the search is longer than
 * two characters and match the store's name or id; choosing one clears that store's cached cart.
 */
export default function StoreSelectorPage() {
  useDocumentTitle('Exhibitor order');
  const list = useStoreList();
  const [text, setText] = useState('');
  const navigate = useNavigate();
  const stores = list.status === 'ready' ? listedStores(list.data) : [];
  const results = searchStores(stores, text);
  const searching = text.trim().length > STORE_SEARCH_MIN_EXCLUSIVE;

  const choose = (storeId: string) => {
    clearCart(storeId);
    void navigate(`/exhibitor_order/${encodeURIComponent(storeId)}`);
  };

  return (
    <div className="store-page store-selector">
      <StoreHeader
        store={{
          name: 'Exhibitor A/V',
          image: null,
          start_date: '',
          end_date: '',
          store_text: 'Find your event to order booth audio-visual equipment.',
        }}
        hideDates
      />
      {list.status === 'loading' ? (
        <p className="store-loading" role="status">
          {LOADING_STORES}
        </p>
      ) : list.status === 'error' ? (
        <div className="store-alert" role="alert">
          <p>
            {STORES_FAILED} {list.error}
          </p>
          <Button onPress={list.retry}>Retry</Button>
        </div>
      ) : (
        <section className="store-panel" aria-label="Find your event">
          <TextField
            type="search"
            label="Find your event"
            description="Type at least three letters of the event name or its store id."
            value={text}
            onChange={setText}
            autoComplete="off"
          />
          {searching ? (
            results.length > 0 ? (
              <ul className="store-results" aria-label="Matching stores">
                {results.map((store) => (
                  <li key={store.store_id}>
                    <button type="button" className="store-result" onClick={() => choose(store.store_id)}>
                      <span className="store-result__name">{store.name}</span>
                      <span className="store-result__dates">
                        {formatDateRange(store.start_date, store.end_date)}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="store-empty" role="status">
                No event matches &lsquo;{text.trim()}&rsquo;.
              </p>
            )
          ) : null}
        </section>
      )}
    </div>
  );
}
