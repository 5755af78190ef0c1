import { CART_EMPTY, EARLY_BIRD_DISCOUNT_PERCENT, formatPrice, SERVICE_FEE_PERCENT } from '@avp/shared';

export interface SummaryLine {
  key: string | number;
  name: string;
  /** The product's picture, shown as a thumbnail. */
  picture?: string | null;
  quantity: number;
  unitAmount: number;
  lineTotal: number;
}

export interface SummaryAmounts {
  subtotal: number;
  discount: number;
  fee: number;
  total: number;
  earlyBird: boolean;
}

/** Subtotal, the early-bird line (only while it applies), the service fee and the total. */
export function PriceSummary({ amounts, currency }: { amounts: SummaryAmounts; currency: string }) {
  const money = (cents: number) => formatPrice(cents, currency);
  return (
    <dl className="store-amounts" aria-label="Order amounts">
      <div>
        <dt>Subtotal</dt>
        <dd>{money(amounts.subtotal)}</dd>
      </div>
      {amounts.earlyBird ? (
        <div>
          <dt>Early-bird discount ({EARLY_BIRD_DISCOUNT_PERCENT}%)</dt>
          <dd>-{money(amounts.discount)}</dd>
        </div>
      ) : null}
      <div>
        <dt>Service fee ({SERVICE_FEE_PERCENT}%)</dt>
        <dd>{money(amounts.fee)}</dd>
      </div>
      <div className="store-amounts__total">
        <dt>Total</dt>
        <dd data-testid="order-total">{money(amounts.total)}</dd>
      </div>
    </dl>
  );
}

/** The read-only cart above the form and the payment step, and the summary on the confirmation page. */
export function CartSummary({
  lines,
  amounts,
  currency,
  title = 'Your order',
}: {
  lines: SummaryLine[];
  amounts: SummaryAmounts;
  currency: string;
  title?: string;
}) {
  const money = (cents: number) => formatPrice(cents, currency);
  return (
    <section className="store-panel store-cart-summary" aria-label={title}>
      <h2 className="store-panel__title">{title}</h2>
      {lines.length === 0 ? (
        <p className="store-empty">{CART_EMPTY}</p>
      ) : (
        <>
          <table className="store-table">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col" className="num">
                  Qty
                </th>
                <th scope="col" className="num store-table__price">
                  Price
                </th>
                <th scope="col" className="num">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr key={line.key}>
                  <td>
                    <span className="store-table__item">
                      {line.picture ? (
                        <img
                          className="store-table__thumbnail"
                          src={line.picture}
                          // Decorative: the product's name is right beside it.
                          alt=""
                          width={48}
                          height={48}
                        />
                      ) : null}
                      <span>
                        {line.name}
                        <span className="store-table__each"> {money(line.unitAmount)} each</span>
                      </span>
                    </span>
                  </td>
                  <td className="num">{line.quantity}</td>
                  <td className="num store-table__price">{money(line.unitAmount)}</td>
                  <td className="num">{money(line.lineTotal)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <PriceSummary amounts={amounts} currency={currency} />
        </>
      )}
    </section>
  );
}
