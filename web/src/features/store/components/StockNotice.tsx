import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../ui';
import { StockShortError, type StoreData, type StoredIntent } from '../api';
import { setCount, type Cart } from '../state';
import { adjustedText, adjustLabel, cartShortages, shortageText, type Shortage } from '../stock';

/**
 * A cart that asks for more than is left: each short line in words and one button that sets the cart to
 * what is left. The cart changes only on that click; afterwards the notice says what the cart now has.
 */
export function StockNotice({
  store,
  shortages,
  onAdjusted,
}: {
  store: StoreData;
  shortages: Shortage[];
  /** Called after the cart was set to what is left (the order in progress is asked for again). */
  onAdjusted?: () => void;
}) {
  const [adjusted, setAdjusted] = useState<Shortage[]>([]);
  if (shortages.length > 0) {
    const adjust = () => {
      const products = new Map(store.products.map((p) => [p.id, p]));
      for (const line of shortages) {
        const product = products.get(line.productId);
        if (product) setCount(store.store_id, product, line.left);
      }
      setAdjusted(shortages);
      onAdjusted?.();
      // The button goes away with the shortage: focus moves to the sentence saying what the cart has now.
      requestAnimationFrame(() => document.getElementById('stock-adjusted')?.focus());
    };
    return (
      <div className="store-alert store-alert--error store-stock-notice" role="alert">
        {shortages.map((line) => (
          <p key={line.productId}>{shortageText(line)}</p>
        ))}
        <Button onPress={adjust}>{adjustLabel(shortages)}</Button>
      </div>
    );
  }
  if (adjusted.length === 0) return null;
  return (
    <div className="store-alert store-stock-notice" role="status" id="stock-adjusted" tabIndex={-1}>
      {adjusted.map((line) => (
        <p key={line.productId}>{adjustedText(line)}</p>
      ))}
    </div>
  );
}

/**
 * The short lines of the cart: the server's, when it refused to hold the order (409 stock_short), else those
 * seen in the store's latest answer. After the refusal, a changed cart asks for the order again.
 */
export function useShortages(
  cart: Cart,
  intent: StoredIntent | null,
  refusal: unknown,
  askAgain?: () => void,
): Shortage[] {
  const signature = cart.map((line) => `${line.product.id}:${line.count}`).join(',');
  const refused = refusal instanceof StockShortError;
  const seen = useRef(signature);
  useEffect(() => {
    if (seen.current === signature) return;
    seen.current = signature;
    if (refused) askAgain?.();
    // Only a change of the cart asks again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature]);
  if (!refused) return cartShortages(cart, intent);
  // Until the order is asked for again, the refusal stands for the lines the cart still has too many of.
  const counts = new Map(cart.map((line) => [line.product.id, line.count]));
  return refusal.lines
    .map((line) => ({ ...line, requested: counts.get(line.productId) ?? 0 }))
    .filter((line) => line.requested > line.left);
}
