import { priceFrom } from './price-from';

const source = (url: string) => ({ url: `https://example.com/${url}` });
const model = (id: string, status: 'active' | 'preview' | 'deprecated' | 'retired', prices: Array<{ unit: any; price: number }>) => ({
  id,
  name: id.toUpperCase(),
  prices,
  lifecycle: { status },
  source: source(id),
});

describe('priceFrom', () => {
  it('takes the lowest rate in the unit most current rates are in, with its model, leaving deprecated and retired models out', () => {
    const from = priceFrom({
      prices: { currency: 'USD', rates: [{ unit: 'request', price: 0.001 }], source: source('pricing') },
      models: [
        model('big', 'active', [{ unit: '1m-input-tokens', price: 2 }, { unit: '1m-output-tokens', price: 8 }]),
        model('small', 'preview', [{ unit: '1m-input-tokens', price: 0.2 }, { unit: '1m-output-tokens', price: 0.8 }]),
        model('old', 'deprecated', [{ unit: '1m-input-tokens', price: 0.05 }]),
        model('gone', 'retired', [{ unit: '1m-input-tokens', price: 0.01 }]),
        { ...model('leaving', 'preview', [{ unit: '1m-input-tokens', price: 0.02 }]), lifecycle: { status: 'preview' as const, retiresAt: '2027-01-01' } },
      ],
    });
    expect(from).toEqual({ unit: '1m-input-tokens', price: 0.2, percent: null, currency: 'USD', appliesTo: null, model: { id: 'small', name: 'SMALL' }, source: source('small') });
  });

  it("puts a flat rate before one with a percentage, and a lower percentage before a lower price, keeps the listing's currency and a rate's own source", () => {
    const from = priceFrom({
      prices: {
        currency: 'EUR',
        rates: [
          { unit: 'transaction', price: 0.15, percent: 3.5 },
          { unit: 'transaction', price: 0.25, percent: 1.5 },
          { unit: 'transaction', price: 0.35, source: source('flat') } as never,
          { unit: 'month', price: 0 },
        ],
        source: source('pricing'),
      },
      models: null,
    });
    expect(from).toMatchObject({ unit: 'transaction', price: 0.35, percent: null, currency: 'EUR', model: null, source: source('flat') });
    const cards = priceFrom({ prices: { currency: 'USD', rates: [{ unit: 'transaction', price: 0.15, percent: 3.5 }, { unit: 'transaction', price: 0.3, percent: 2.9 }], source: source('p') } });
    expect(cards).toMatchObject({ price: 0.3, percent: 2.9 });
  });

  it('is null without prices, without a current rate or with rates of the unit `other` only', () => {
    expect(priceFrom({ prices: null, models: [model('a', 'active', [{ unit: 'image', price: 1 }])] })).toBeNull();
    expect(priceFrom({ prices: { currency: 'USD', rates: [], source: source('p') }, models: [model('old', 'deprecated', [{ unit: 'image', price: 1 }])] })).toBeNull();
    const other = priceFrom({ prices: { currency: 'USD', rates: [{ unit: 'other', price: 5 }, { unit: 'other', price: 3 }, { unit: 'month', price: 20 }], source: source('p') }, models: [] });
    expect(other).toMatchObject({ unit: 'month', price: 20 });
    // Rates in units of their own only: nothing a price from could compare.
    expect(priceFrom({ prices: { currency: 'USD', rates: [{ unit: 'other', price: 3 }], source: source('p') }, models: [] })).toBeNull();
  });
});
