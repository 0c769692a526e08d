import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Order, Receipt } from '@/api/billing';
import { ReceiptParties } from './Receipt';

const t = (key: string) => `[${key}]`;

function receipt(changes: Partial<Receipt> = {}): Receipt {
  return {
    order: { orderCode: 'CO2611281504194313F6', payFee: 44000, currency: 'CNY' } as Order,
    seller: { name: 'Acme Cold Chain', address: '1 Cold Street, Shanghai', taxId: '91310000MA1FL0000X' },
    buyer: { name: 'Li Lei', company: 'Cold Chain Ltd', taxId: '91310000X', invoiceTitle: 'Cold Co' },
    tax: { included: true, currency: 'CNY', total: 44000 },
    ...changes,
  };
}

const text = (html: string) => html.replace(/<[^>]+>/g, '|');

describe('the receipt', () => {
  it('names the seller and the buyer with their tax ids, and the total as tax included', () => {
    const html = renderToStaticMarkup(createElement(ReceiptParties, { receipt: receipt(), t }));
    const shown = text(html);
    const seller = shown.slice(shown.indexOf('[receipt.seller]'), shown.indexOf('[receipt.buyer]'));
    expect(seller).toContain('Acme Cold Chain');
    expect(seller).toContain('1 Cold Street, Shanghai');
    expect(seller).toContain('91310000MA1FL0000X');
    const buyer = shown.slice(shown.indexOf('[receipt.buyer]'), shown.indexOf('[receipt.tax]'));
    expect(buyer).toContain('Li Lei');
    expect(buyer).toContain('Cold Chain Ltd');
    expect(buyer).toContain('91310000X');
    const tax = shown.slice(shown.indexOf('[receipt.tax]'));
    expect(tax).toContain('440.00');
    expect(tax).toContain('[receipt.taxIncluded]');
    expect(html).toContain('data-cents="44000"');
  });

  it('says what is missing rather than leaving it blank, and keeps the order currency', () => {
    const bare = receipt({
      seller: { name: 'Acme Cold Chain', address: null, taxId: null },
      buyer: { name: 'buyer_one', company: null, taxId: null },
      tax: { included: true, currency: 'USD', total: 10000 },
    });
    const shown = text(renderToStaticMarkup(createElement(ReceiptParties, { receipt: bare, t })));
    const seller = shown.slice(shown.indexOf('[receipt.seller]'), shown.indexOf('[receipt.buyer]'));
    expect(seller.match(/\|-\|/g)).toHaveLength(2);
    expect(shown).toContain('buyer_one');
    expect(shown).toMatch(/\$100\.00|USD\s?100\.00|US\$100\.00/);
  });
});
