import { formatPrice } from '@avp/shared';
import { amountRows, customerRows, RENTAL_TERMS } from './receipt.js';
import type { Receipt } from './receipt.js';

/**
 * The invoice receipt attached to the confirmation e-mail (SPEC §2: 'order summary and invoice receipt'),
 * drawn with pdfkit's built-in Helvetica so no font file is needed.
 */
export async function invoicePdf(receipt: Receipt): Promise<Buffer> {
  // Loaded when the first invoice is drawn, not with the server (a smaller heap: cheaper collections).
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'LETTER',
      margin: 54,
      info: { Title: `Invoice ${receipt.confirmation}`, Subject: `${receipt.storeName} order` },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    const money = (cents: number) => formatPrice(cents, receipt.currency);
    const left = doc.page.margins.left;
    const width = doc.page.width - left - doc.page.margins.right;
    const columns = {
      item: left,
      qty: left + width * 0.58,
      unit: left + width * 0.68,
      amount: left + width * 0.84,
    };
    const numberWidth = width * 0.16;

    doc.font('Helvetica-Bold').fontSize(20).text('Invoice receipt');
    doc.moveDown(0.3).font('Helvetica').fontSize(11);
    doc.text(`Confirmation number: ${receipt.confirmation}`);
    doc.text(`Paid: ${receipt.paidOn}${receipt.card ? ` (${receipt.card})` : ''}`);
    doc.text(`Event: ${receipt.storeName}, ${receipt.eventDates}`);
    doc.moveDown();

    doc.font('Helvetica-Bold').text('Billed to');
    doc.font('Helvetica');
    const c = receipt.customer;
    doc.text(c.company);
    doc.text(`${c.firstName} ${c.lastName}`);
    doc.text(`${c.address}, ${c.city}, ${c.state} ${c.zip}`);
    doc.text(`${c.email}, ${c.phone}`);
    doc.moveDown();

    const row = (item: string, qty: string, unit: string, amount: string, bold = false) => {
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
      const y = doc.y;
      doc.text(item, columns.item, y, { width: columns.qty - columns.item - 8 });
      const bottom = doc.y;
      doc.text(qty, columns.qty, y, { width: columns.unit - columns.qty - 8, align: 'right' });
      doc.text(unit, columns.unit, y, { width: numberWidth - 8, align: 'right' });
      doc.text(amount, columns.amount, y, { width: numberWidth, align: 'right' });
      doc.x = left;
      doc.y = Math.max(bottom, doc.y) + 4;
    };
    row('Item', 'Qty', 'Unit price', 'Amount', true);
    for (const line of receipt.lines) {
      row(line.name, String(line.quantity), money(line.unitAmount), money(line.lineTotal));
    }
    doc.moveDown(0.5);
    for (const [label, amount] of amountRows(receipt)) row('', '', label, amount, label === 'Total');
    doc.moveDown();

    doc.font('Helvetica-Bold').text('Rental information', left);
    doc.font('Helvetica');
    for (const [label, value] of customerRows(receipt)) doc.text(`${label}: ${value}`);
    doc.moveDown();
    doc.fontSize(9).text(RENTAL_TERMS, { width });
    doc.end();
  });
}
