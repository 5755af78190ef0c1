import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, ordersCsvText } from '../src/modules/staff/orders-csv.js';

/** The staff orders export's text, cell by cell: what a spreadsheet opening it reads. */
describe('ordersCsvText', () => {
  const HEADER = `${CSV_COLUMNS.join(',')}\r\n`;

  it('is the header row alone, ended by CRLF and without a byte-order mark, when no order matches', () => {
    expect(ordersCsvText([])).toBe(HEADER);
    expect(HEADER.startsWith('confirmation,order_id,status,store_id,')).toBe(true);
  });

  it('writes one CRLF-ended line per row; empty and null cells stay empty, numbers as they are', () => {
    expect(ordersCsvText([['AV-1', 2, null, '', -3, 'Booth 12']])).toBe(`${HEADER}AV-1,2,,,-3,Booth 12\r\n`);
  });

  it.each([
    ['a comma', 'Acme, Inc.', '"Acme, Inc."'],
    ['a double quote', 'The "Big" Booth', '"The ""Big"" Booth"'],
    ['a line break', 'Hall A\nRow 3', '"Hall A\nRow 3"'],
    ['a leading space', ' Booth 4', '" Booth 4"'],
    ['a trailing space', 'Booth 4 ', '"Booth 4 "'],
    ['non-ASCII letters', 'Café Ünïcødé 会议', 'Café Ünïcødé 会议'],
  ])('quotes a cell with %s as RFC 4180 does', (_case, cell, written) => {
    expect(ordersCsvText([[cell]])).toBe(`${HEADER}${written}\r\n`);
  });

  it.each([
    ['=', '=HYPERLINK("http://evil.example")', `"'=HYPERLINK(""http://evil.example"")"`],
    ['+', '+1 555 0100', `'+1 555 0100`],
    ['-', '-2.00', `'-2.00`],
    ['@', '@SUM(A1)', `'@SUM(A1)`],
    ['a tab', '\tcmd', `'\tcmd`],
    ['a carriage return', '\rcmd', `"'\rcmd"`],
  ])('puts an apostrophe before text starting with %s, so no spreadsheet runs it', (_sign, cell, written) => {
    expect(ordersCsvText([[cell]])).toBe(`${HEADER}${written}\r\n`);
  });

  it('leaves numbers and text with a sign further in alone', () => {
    expect(ordersCsvText([[-5, 'a=b', 'x-1']])).toBe(`${HEADER}-5,a=b,x-1\r\n`);
  });
});
