/**
 * An order's refunds: those made, and a full or partial refund with a reason, its amount shown in a
 * confirmation before it is issued.
 */
import { formatPrice } from '@avp/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { putQueryData } from '../../../lib/queryData';
import { useConfirmItsYou } from '../../../lib/confirm-its-you';
import { Button, Checkbox, ConfirmDialog, TextField } from '../../../ui';
import { staffApi, type OrderDetail } from '../api';
import { toCents } from '../money';
import { refundStatusLabel } from '../labels';
import { staffKeys, useStaffDateTime } from '../queries';

export type Notice = { error: boolean; text: string } | null;

function newKey(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

export function RefundPanel({ order, onNotice }: { order: OrderDetail; onNotice: (notice: Notice) => void }) {
  const queryClient = useQueryClient();
  const when = useStaffDateTime();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [backInStock, setBackInStock] = useState(false);
  const [confirming, setConfirming] = useState<{ cents: number; key: string } | null>(null);
  const money = (cents: number) => formatPrice(cents, order.currency);
  // Refunds above REFUND_FRESH_SIGN_IN_ABOVE need a recent sign-in (#33): asked for, then sent again.
  const { dialog: confirmItsYou, withFreshSignIn } = useConfirmItsYou();
  const refund = useMutation({
    mutationFn: (request: { amount: number; reason: string; key: string; backInStock: boolean }) =>
      withFreshSignIn(() => staffApi.refund(order.id, request)),
    onSuccess: (answer, request) => {
      putQueryData(queryClient, staffKeys.order(order.id), answer.order);
      void queryClient.invalidateQueries({ queryKey: staffKeys.orderLists });
      setAmount('');
      setReason('');
      setBackInStock(false);
      onNotice({
        error: false,
        text: `Refunded ${money(request.amount)}.${request.backInStock ? ' Its units are back in stock.' : ''}`,
      });
    },
    onError: (error) => onNotice({ error: true, text: errorMessage(error) }),
  });

  const askRefund = () => {
    const cents = toCents(amount);
    if (cents === null || cents < 1)
      return onNotice({ error: true, text: 'Enter the amount to refund, like 12.50.' });
    if (cents > order.refundable)
      return onNotice({ error: true, text: `At most ${money(order.refundable)} can be refunded.` });
    if (reason.trim() === '') return onNotice({ error: true, text: 'Please give a reason for the refund.' });
    onNotice(null);
    // One key per confirmation: a double click or a retry of this refund is the same refund.
    setConfirming({ cents, key: newKey() });
  };
  const issue = () => {
    if (!confirming) return;
    const { cents, key } = confirming;
    setConfirming(null);
    refund.mutate({ amount: cents, reason: reason.trim(), key, backInStock });
  };

  return (
    <>
      <div className="staff-panel">
        <h2>Refunds</h2>
        {order.refunds.length > 0 ? (
          <ul>
            {order.refunds.map((r) => (
              <li key={r.id}>
                {money(r.amount)} · {refundStatusLabel(r.status)} · {r.reason} · {when(r.created_at)}
              </li>
            ))}
          </ul>
        ) : null}
        {order.refundable > 0 ? (
          <form
            aria-label="Refund"
            className="staff-filters"
            onSubmit={(event) => {
              event.preventDefault();
              askRefund();
            }}
          >
            <TextField
              label="Amount to refund"
              value={amount}
              onChange={setAmount}
              inputMode="decimal"
              description={`At most ${money(order.refundable)}`}
            />
            <TextField label="Reason" value={reason} onChange={setReason} />
            <Checkbox
              label="Back in stock"
              value={backInStock}
              onChange={setBackInStock}
              description="The refunded equipment can be sold again."
            />
            <Button variant="secondary" onPress={() => setAmount((order.refundable / 100).toFixed(2))}>
              Full amount
            </Button>
            <Button type="submit">Refund…</Button>
          </form>
        ) : (
          <p className="staff-muted">Nothing left to refund.</p>
        )}
      </div>
      <ConfirmDialog
        isOpen={confirming !== null}
        title="Issue this refund?"
        text={
          confirming
            ? `${money(confirming.cents)} will be refunded to the card of ${order.email} through ${order.gateway}. Reason: ${reason.trim()}${backInStock ? ' The units go back in stock.' : ' The units are not put back in stock.'}`
            : ''
        }
        confirmLabel={confirming ? `Refund ${money(confirming.cents)}` : 'Refund'}
        onCancel={() => setConfirming(null)}
        onConfirm={issue}
        destructive
      />
      {confirmItsYou}
    </>
  );
}
