/**
 * /staff/products: products shared by every store (create, edit, reorder, deactivate, a picture uploaded
 * per product from its row, resized by the server) and one store's prices (set, removed, saved together).
 */
import { formatPrice } from '@avp/shared';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api';
import { putQueryData } from '../../lib/queryData';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Button, Checkbox, TextAreaField, TextField } from '../../ui';
import { staffApi, uploadImage, type StaffPrice, type StaffProduct } from './api';
import { toCents } from './money';
import { staffKeys, useStaffStores } from './queries';
import { StoreSelect } from './StoreSelect';
import './admin.css';

export default function ProductsPage() {
  useDocumentTitle('Products and prices');
  return (
    <>
      <h1>Products and prices</h1>
      <Products />
      <Prices />
    </>
  );
}

interface Draft {
  id: number | null;
  name: string;
  description: string;
  images: string[];
  is_active: boolean;
}
const EMPTY: Draft = { id: null, name: '', description: '', images: [], is_active: true };

function Products() {
  const queryClient = useQueryClient();
  const productsQuery = useQuery({
    queryKey: staffKeys.products,
    queryFn: () => staffApi.products().then((answer) => answer.products),
  });
  const products = productsQuery.data ?? null;
  // Every product change answers the whole list: it replaces the cached one.
  const setProducts = (list: StaffProduct[]) => putQueryData(queryClient, staffKeys.products, list);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [notice, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const message =
    notice ?? (productsQuery.error ? { error: true, text: errorMessage(productsQuery.error) } : null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const run = (call: Promise<{ products: StaffProduct[] }>, done?: string) =>
    call.then(
      (answer) => {
        setProducts(answer.products);
        if (done) setMessage({ error: false, text: done });
      },
      (error: unknown) => setMessage({ error: true, text: errorMessage(error) }),
    );

  const edit = (next: Draft) => {
    setFields({});
    setDraft(next);
  };
  const save = () => {
    const body = {
      name: draft.name,
      description: draft.description,
      images: draft.images,
      is_active: draft.is_active,
    };
    setFields({});
    (draft.id === null ? staffApi.createProduct(body) : staffApi.updateProduct(draft.id, body)).then(
      (answer) => {
        setProducts(answer.products);
        setMessage({ error: false, text: 'Product saved.' });
        setDraft(EMPTY);
      },
      (error: unknown) => {
        // The server's word on a field goes under that field; the draft stays to be corrected.
        if (error instanceof ApiError) setFields(error.fields);
        setMessage({ error: true, text: errorMessage(error) });
      },
    );
  };
  const move = (index: number, by: number) => {
    if (!products) return;
    const ids = products.map((p) => p.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id!);
    void run(staffApi.reorderProducts(ids));
  };
  /** One picture per product, straight from its row: uploaded, then saved as the product's picture. */
  const replacePicture = async (product: StaffProduct, file: File | undefined) => {
    if (!file) return;
    try {
      const { url } = await uploadImage<{ url: string }>('/api/staff/product-images', file);
      await run(
        staffApi.updateProduct(product.id, {
          name: product.name,
          description: product.description,
          images: [url],
          is_active: product.is_active,
        }),
        `Picture of ${product.name} saved.`,
      );
    } catch (error) {
      setMessage({ error: true, text: error instanceof Error ? error.message : String(error) });
    }
  };
  const upload = async (file: File | undefined) => {
    if (!file) return;
    try {
      const { url } = await uploadImage<{ url: string }>('/api/staff/product-images', file);
      setDraft((d) => ({ ...d, images: [...d.images, url] }));
    } catch (error) {
      setMessage({ error: true, text: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <section aria-labelledby="products-title" className="staff-panel">
      <h2 id="products-title">Products</h2>
      {message ? (
        <p
          role={message.error ? 'alert' : 'status'}
          className={message.error ? 'staff-error' : 'staff-status'}
        >
          {message.text}
        </p>
      ) : null}
      {products === null ? (
        <p role="status">Loading products…</p>
      ) : (
        <div className="staff-table-scroll">
          <table className="staff-table" aria-label="Products">
            <thead>
              <tr>
                <th>Order</th>
                <th>Name</th>
                <th>Description</th>
                <th>Picture</th>
                <th>Active</th>
                <th>Stores</th>
                <th>Edit</th>
              </tr>
            </thead>
            <tbody>
              {products.map((p, index) => (
                <tr key={p.id}>
                  <td>
                    <div className="staff-actions">
                      <Button
                        dense
                        variant="secondary"
                        isDisabled={index === 0}
                        onPress={() => move(index, -1)}
                        aria-label={`Move ${p.name} up`}
                      >
                        ↑
                      </Button>
                      <Button
                        dense
                        variant="secondary"
                        isDisabled={index === products.length - 1}
                        onPress={() => move(index, 1)}
                        aria-label={`Move ${p.name} down`}
                      >
                        ↓
                      </Button>
                    </div>
                  </td>
                  <td>{p.name}</td>
                  <td>{p.description}</td>
                  <td>
                    <div className="staff-picture">
                      {p.images[0] ? (
                        <img src={p.images[0]} alt={p.name} width={64} height={64} />
                      ) : (
                        <span className="staff-muted">No picture</span>
                      )}
                      <label className="staff-file-button">
                        <span aria-hidden="true">{p.images[0] ? 'Replace' : 'Upload'}</span>
                        <input
                          type="file"
                          accept="image/png,image/jpeg,image/webp,image/gif"
                          aria-label={`Upload a picture of ${p.name}`}
                          onChange={(e) => {
                            void replacePicture(p, e.target.files?.[0]);
                            e.target.value = '';
                          }}
                        />
                      </label>
                    </div>
                  </td>
                  <td>{p.is_active ? 'Yes' : 'No'}</td>
                  <td className="num">{p.stores}</td>
                  <td>
                    <Button
                      dense
                      variant="secondary"
                      onPress={() => setDraft({ ...p })}
                      aria-label={`Edit ${p.name}`}
                    >
                      Edit
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form
        aria-label="Product"
        className="staff-form staff-panel"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <h3 className="staff-form__wide">
          {draft.id === null ? 'New product' : `Edit product #${draft.id}`}
        </h3>
        <TextField
          label="Product name"
          value={draft.name}
          onChange={(name) => setDraft((d) => ({ ...d, name }))}
          errorMessage={fields.name}
          isRequired
        />
        <Checkbox
          label="Product active"
          value={draft.is_active}
          onChange={(is_active) => setDraft((d) => ({ ...d, is_active }))}
        />
        <div className="staff-form__wide">
          <TextAreaField
            label="Product description"
            value={draft.description}
            onChange={(description) => setDraft((d) => ({ ...d, description }))}
            errorMessage={fields.description}
            rows={2}
          />
        </div>
        <div className="staff-form__wide">
          {draft.images.map((src) => (
            <span key={src} className="staff-actions">
              <img src={src} alt={draft.name === '' ? 'Product picture' : draft.name} width={64} />
              <Button
                dense
                variant="secondary"
                onPress={() => setDraft((d) => ({ ...d, images: d.images.filter((i) => i !== src) }))}
              >
                Remove image
              </Button>
            </span>
          ))}
          <label className="staff-muted">
            Add an image (resized to 800 px){' '}
            <input
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              onChange={(e) => void upload(e.target.files?.[0])}
            />
          </label>
        </div>
        <div className="staff-actions staff-form__wide">
          <Button type="submit">Save product</Button>
          {draft.id !== null ? (
            <Button variant="secondary" onPress={() => edit(EMPTY)}>
              Cancel
            </Button>
          ) : null}
        </div>
      </form>
    </section>
  );
}

function Prices() {
  const storesQuery = useStaffStores();
  const stores = storesQuery.data?.stores ?? [];
  const [storeKey, setStoreKey] = useState('');
  const [rows, setRows] = useState<Record<number, string>>({});
  const [notice, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  // The store's prices with the product list they price, asked together so the table appears whole.
  const pricesQuery = useQuery({
    queryKey: staffKeys.prices(Number(storeKey)),
    queryFn:
      storeKey === ''
        ? skipToken
        : () =>
            Promise.all([staffApi.prices(Number(storeKey)), staffApi.products()]).then(([p, all]) => ({
              prices: p.prices,
              products: all.products,
            })),
    placeholderData: (previous) => previous,
  });
  const products = pricesQuery.data?.products ?? [];
  const loadError = pricesQuery.error ?? storesQuery.error;
  const message = notice ?? (loadError ? { error: true, text: errorMessage(loadError) } : null);
  const show = (prices: StaffPrice[]) => {
    setRows(Object.fromEntries(prices.map((p) => [p.product_id, (p.unit_amount / 100).toFixed(2)])));
  };
  // The editable rows start from each answer that comes in (a store chosen, or asked again).
  const loaded = pricesQuery.data;
  const [seeded, setSeeded] = useState(loaded);
  if (loaded !== seeded) {
    setSeeded(loaded);
    if (loaded) {
      setMessage(null);
      show(loaded.prices);
    }
  }

  const save = () => {
    const prices: { product_id: number; unit_amount: number }[] = [];
    for (const [id, text] of Object.entries(rows)) {
      if (text.trim() === '') continue;
      const cents = toCents(text);
      if (cents === null) {
        setMessage({
          error: true,
          text: `Enter a price like 12.50 for ${products.find((p) => p.id === Number(id))?.name ?? id}.`,
        });
        return;
      }
      prices.push({ product_id: Number(id), unit_amount: cents });
    }
    void staffApi.setPrices(Number(storeKey), prices).then(
      (answer) => {
        show(answer.prices);
        setMessage({ error: false, text: 'Prices saved.' });
      },
      (e: unknown) => setMessage({ error: true, text: errorMessage(e) }),
    );
  };

  return (
    <section aria-labelledby="prices-title" className="staff-panel">
      <h2 id="prices-title">Prices of a store</h2>
      <StoreSelect stores={stores} value={storeKey} onChange={setStoreKey} />
      {message ? (
        <p
          role={message.error ? 'alert' : 'status'}
          className={message.error ? 'staff-error' : 'staff-status'}
        >
          {message.text}
        </p>
      ) : null}
      {storeKey !== '' ? (
        <form
          aria-label="Prices"
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <p className="staff-muted">A product with no price is not sold in this store.</p>
          <div className="staff-table-scroll">
            <table className="staff-table">
              <thead>
                <tr>
                  <th>Product</th>
                  <th>Price (USD)</th>
                  <th>Now</th>
                </tr>
              </thead>
              <tbody>
                {products.map((p) => {
                  const cents = toCents(rows[p.id] ?? '');
                  return (
                    <tr key={p.id}>
                      <td>
                        {p.name}
                        {p.is_active ? null : <span className="staff-muted"> (inactive)</span>}
                      </td>
                      <td>
                        <TextField
                          label={`Price of ${p.name}`}
                          value={rows[p.id] ?? ''}
                          onChange={(v) => setRows((r) => ({ ...r, [p.id]: v }))}
                          inputMode="decimal"
                        />
                      </td>
                      <td className="num">{cents === null ? '—' : formatPrice(cents)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Button type="submit">Save prices</Button>
        </form>
      ) : null}
    </section>
  );
}
