import {
  CART_EMPTY,
  formatPrice,
  NOTHING_FOR_SALE,
  QUANTITY_DEFAULT,
  QUANTITY_MAX,
  QUANTITY_MIN,
} from '@avp/shared';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button, NumberInput } from '../../../ui';
import type { StoreData, StoreProduct } from '../api';
import '../store.css';
import { PriceSummary } from '../components/CartSummary';
import { StoreFrame } from '../components/StoreFrame';
import { currencyOf, currentCart, previewAmounts } from '../pricing';
import { applyPendingCounts, setCount, setPendingCount, useCart, useStoredIntent } from '../state';
import { StockNotice } from '../components/StockNotice';
import { availableTo, cartShortages, SOLD_OUT, stockLabel } from '../stock';

/** /exhibitor_order/{storeId} (SPEC §2): the products and the cart. */
export default function ProductsPage() {
  const { storeId = '' } = useParams();
  return (
    <StoreFrame key={storeId} storeId={storeId}>
      {(store) => <Products store={store} />}
    </StoreFrame>
  );
}

function Products({ store }: { store: StoreData }) {
  if (store.products.length === 0) {
    return (
      <section className="store-products" aria-label="Products">
        <h2 className="store-panel__title">Equipment</h2>
        <p className="store-empty">{NOTHING_FOR_SALE}</p>
      </section>
    );
  }
  return (
    <div className="store-columns">
      <section className="store-products" aria-label="Products">
        <h2 className="store-panel__title">Equipment</h2>
        <ul className="store-product-list">
          {store.products.map((product) => (
            <ProductCard key={product.id} storeId={store.store_id} product={product} />
          ))}
        </ul>
      </section>
      <CartEditor store={store} />
      <CartBar store={store} />
    </div>
  );
}

const checkoutPath = (storeId: string) => `/exhibitor_order/${encodeURIComponent(storeId)}/checkout`;

/**
 * On a phone the cart sits below every product: this bar keeps its count, total and Checkout in view
 * (hidden by the stylesheet where the cart itself stays beside the products).
 */
function CartBar({ store }: { store: StoreData }) {
  const { cart: stored } = useCart(store.store_id);
  const cart = currentCart(store, stored);
  if (cart.length === 0) return null;
  const items = cart.reduce((sum, line) => sum + line.count, 0);
  const { total } = previewAmounts(store, cart);
  return (
    <section className="store-cartbar" aria-label="Cart total">
      <p className="store-cartbar__sum">
        <a href="#cart">
          {items} {items === 1 ? 'item' : 'items'}
        </a>
        <strong>{formatPrice(total, currencyOf(store))}</strong>
      </p>
      <Link
        className="kit-button kit-button--primary"
        to={checkoutPath(store.store_id)}
        onClick={() => applyPendingCounts(store.store_id)}
      >
        Checkout
      </Link>
    </section>
  );
}

function ProductCard({ storeId, product }: { storeId: string; product: StoreProduct }) {
  const [quantity, setQuantity] = useState<number | null>(QUANTITY_DEFAULT);
  const { cart } = useCart(storeId);
  const { intent } = useStoredIntent(storeId);
  const stock = stockLabel(product, intent);
  const soldOut = stock === SOLD_OUT;
  const stockId = `product-${product.id}-stock`;
  const inCartId = `product-${product.id}-in-cart`;
  const inCart = cart.find((line) => line.product.id === product.id)?.count ?? 0;
  const available = availableTo(product, intent);
  // Everything that is left is in the cart already: adding more would only make the cart short.
  const allInCart = available !== null && available > 0 && inCart >= available;
  const image = product.images[0];
  const add = () => {
    const wanted = Math.min(QUANTITY_MAX, inCart + (quantity ?? QUANTITY_DEFAULT));
    setCount(storeId, product, wanted);
    setQuantity(QUANTITY_DEFAULT);
  };
  return (
    <li className="store-product" aria-labelledby={`product-${product.id}`}>
      {image ? (
        <img
          className="store-product__image"
          src={image}
          alt={product.name}
          width={120}
          height={120}
          loading="lazy"
        />
      ) : null}
      <div className="store-product__body">
        <h3 id={`product-${product.id}`} className="store-product__name">
          {product.name}
        </h3>
        <p className="store-product__description">{product.description}</p>
        <p className="store-product__price">{formatPrice(product.price, product.currency)}</p>
        {stock ? (
          <p id={stockId} className={`store-stock${soldOut ? ' store-stock--out' : ''}`}>
            {stock}
          </p>
        ) : null}
        <div className="store-product__actions">
          <NumberInput
            label={
              <>
                Quantity<span className="visually-hidden"> of {product.name}</span>
              </>
            }
            className="store-qty"
            groupLabel={`Quantity of ${product.name}`}
            min={QUANTITY_MIN}
            max={QUANTITY_MAX}
            value={quantity}
            onChange={setQuantity}
            showSteppers
            isDisabled={soldOut}
          />
          <Button
            onPress={add}
            isDisabled={inCart >= QUANTITY_MAX || soldOut || allInCart}
            aria-label={`Add ${product.name} to cart`}
            aria-describedby={[stock ? stockId : '', allInCart ? inCartId : ''].join(' ').trim() || undefined}
          >
            Add to cart
          </Button>
        </div>
        {inCart > 0 ? (
          <p className="store-product__in-cart" id={inCartId}>
            In your cart: {inCart}
            {allInCart ? ' (all that is left)' : ''}
          </p>
        ) : null}
      </div>
    </li>
  );
}

/** The cart: a count can be changed (0 removes the line) and an Update button applies it. */
function CartEditor({ store }: { store: StoreData }) {
  const { cart: stored } = useCart(store.store_id);
  const cart = currentCart(store, stored);
  const currency = currencyOf(store);
  const { intent } = useStoredIntent(store.store_id);
  const shortages = cartShortages(cart, intent);
  return (
    <section className="store-panel store-cart" aria-label="Cart" id="cart" tabIndex={-1}>
      <h2 className="store-panel__title">Cart</h2>
      <StockNotice store={store} shortages={shortages} />
      {cart.length === 0 ? (
        <p className="store-empty">{CART_EMPTY}</p>
      ) : (
        <>
          <ul className="store-cart__lines">
            {cart.map((line) => (
              <CartLineEditor
                key={line.product.id}
                storeId={store.store_id}
                product={line.product}
                count={line.count}
              />
            ))}
          </ul>
          <PriceSummary amounts={previewAmounts(store, cart)} currency={currency} />
        </>
      )}
      {cart.length > 0 ? (
        <Link
          className="kit-button kit-button--primary store-cart__checkout"
          to={checkoutPath(store.store_id)}
          // A count typed but not yet applied with Update is applied on the way out.
          onClick={() => applyPendingCounts(store.store_id)}
        >
          Checkout
        </Link>
      ) : null}
    </section>
  );
}

function CartLineEditor({
  storeId,
  product,
  count,
}: {
  storeId: string;
  product: StoreProduct;
  count: number;
}) {
  const [draft, setDraft] = useState<number | null>(count);
  const [shown, setShown] = useState(count);
  if (shown !== count) {
    // The cart changed (Update here, or Add to cart above): the field starts again from the new count.
    setShown(count);
    setDraft(count);
  }
  const field = useRef<HTMLInputElement>(null);
  const update = () => {
    if (draft === null) return;
    // The Update button goes away once applied: focus returns to the count (or the cart, when removed).
    if (draft === 0) document.getElementById('cart')?.focus();
    else field.current?.focus();
    setCount(storeId, product, draft);
  };
  // SPEC §4: Update appears as soon as the count changes, not only once the field is left.
  const typed = (text: string) => {
    const value = /^\d+$/.test(text.trim()) ? Number(text) : null;
    setDraft(value === null ? null : Math.min(QUANTITY_MAX, value));
  };
  const changed = draft !== null && draft !== count;
  useEffect(() => {
    setPendingCount(storeId, product, changed ? draft : null);
    return () => setPendingCount(storeId, product, null);
  }, [storeId, product, changed, draft]);
  return (
    <li className="store-cart__line" aria-label={product.name}>
      <div className="store-cart__name">
        <span>
          {product.name}
          <span className="store-cart__each">{formatPrice(product.price, product.currency)} each</span>
        </span>
        <span className="store-cart__amount">{formatPrice(product.price * count, product.currency)}</span>
      </div>
      <div className="store-cart__controls">
        <NumberInput
          label={
            <>
              <span aria-hidden="true">Qty</span>
              <span className="visually-hidden">Count of {product.name}</span>
            </>
          }
          className="store-qty"
          groupLabel={`Count of ${product.name}`}
          min={0}
          max={QUANTITY_MAX}
          value={draft}
          onChange={setDraft}
          onInputChange={typed}
          inputRef={field}
        />
        {changed ? (
          <Button variant="secondary" onPress={update}>
            Update
          </Button>
        ) : null}
      </div>
    </li>
  );
}
