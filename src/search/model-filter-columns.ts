import { CAPABILITY_FILTERS as FLAGS, type ModelFilters } from '../contract/model-filters';
import { LIFECYCLE_STATUSES, MODALITIES, MODEL_KINDS, type ComparedRateUnit } from '../contract/vocabulary';
import type { ModelView } from '../models/views/model-views';

/** How many bits each fact takes in a model's packed word, in the word's order from its lowest bit. */
const WIDTHS = {
  input: MODALITIES.length,
  output: MODALITIES.length,
  /** One bit per capability filter. */
  flags: FLAGS.length,
  kind: Math.ceil(Math.log2(MODEL_KINDS.length)),
  status: Math.ceil(Math.log2(LIFECYCLE_STATUSES.length)),
  freeQuota: 1,
};
/** Where each fact sits: its first bit and its width, each field after the one before. */
const AT = {} as Record<keyof typeof WIDTHS, readonly [number, number]>;
let next = 0;
for (const [name, width] of Object.entries(WIDTHS) as Array<[keyof typeof WIDTHS, number]>) {
  AT[name] = [next, width];
  next += width;
}
// A vocabulary that grows past 31 bits in all would overlap the sign bit: refuse to start rather than mix facts.
if (next > 31) throw new Error(`the model filters' packed facts take ${next} bits, more than 31`);
const field = (name: keyof typeof AT, value: number) => value << AT[name][0];
const whole = (name: keyof typeof AT) => field(name, (1 << AT[name][1]) - 1);
const bits = <T extends string>(values: readonly T[], all: readonly T[]) => values.reduce((mask, value) => mask | (1 << all.indexOf(value)), 0);
const STATUS = whole('status');
const RETIRED = field('status', LIFECYCLE_STATUSES.indexOf('retired'));

/**
 * The facts the model filters test, in typed arrays indexed like the catalog's views. A query tests up to
 * every model of the catalog (100,000 at the size we measure): the facts tested for equality or bits
 * (kind, modalities, capability flags, lifecycle, free offer) are packed into one 32-bit word per model,
 * so that all of them are one mask and one comparison; context, output and prices are numbers beside it,
 * read only when their filter is set. The rarer filters (listing, category, liveness, shutdown days)
 * read the model's view, and only when set.
 */
export class ModelFilterColumns {
  private readonly packed: Uint32Array;
  private readonly context: Float64Array;
  private readonly maxOutput: Float64Array;
  /** Per unit, each model's lowest current rate (Infinity: none), worked out on first use. */
  private readonly lowest = new Map<ComparedRateUnit, Float64Array>();

  constructor(private readonly views: readonly ModelView[]) {
    this.packed = Uint32Array.from(views, ({ model, freeQuota }) =>
      field('input', bits(model.input, MODALITIES)) |
      field('output', bits(model.output, MODALITIES)) |
      field('flags', bits(FLAGS.filter((flag) => model.capabilities[flag] === true), FLAGS)) |
      field('kind', MODEL_KINDS.indexOf(model.kind)) |
      field('status', LIFECYCLE_STATUSES.indexOf(model.lifecycle.status)) |
      field('freeQuota', freeQuota ? 1 : 0),
    );
    this.context = Float64Array.from(views, ({ model }) => model.contextTokens ?? 0);
    this.maxOutput = Float64Array.from(views, ({ model }) => model.maxOutputTokens ?? 0);
  }

  /** Each model's lowest current rate in `unit`, Infinity where it has none. */
  lowestIn(unit: ComparedRateUnit): Float64Array {
    let prices = this.lowest.get(unit);
    if (!prices) {
      prices = Float64Array.from(this.views, (view) => view.lowest.get(unit) ?? Infinity);
      this.lowest.set(unit, prices);
    }
    return prices;
  }

  /** A test of a model (by its index) against every filter set; the filters not set cost nothing. */
  test(f: ModelFilters, today: string): ModelFilterTest {
    let mask = 0;
    let want = 0;
    const equal = (name: keyof typeof AT, value: number) => {
      mask |= whole(name);
      want |= field(name, value);
    };
    const including = (name: keyof typeof AT, value: number) => {
      mask |= field(name, value);
      want |= field(name, value);
    };
    if (f.kind !== null) equal('kind', MODEL_KINDS.indexOf(f.kind));
    if (f.input !== null) including('input', 1 << MODALITIES.indexOf(f.input));
    if (f.output !== null) including('output', 1 << MODALITIES.indexOf(f.output));
    including('flags', bits(FLAGS.filter((flag) => f[flag] === true), FLAGS));
    mask |= field('flags', bits(FLAGS.filter((flag) => f[flag] === false), FLAGS));
    if (f.lifecycle !== null) equal('status', LIFECYCLE_STATUSES.indexOf(f.lifecycle));
    if (f.freeQuota !== null) equal('freeQuota', f.freeQuota ? 1 : 0);
    const rare =
      f.listing !== null || f.category !== null || f.live !== null || f.retiringWithin !== null
        ? (view: ModelView) =>
            (f.listing === null || view.listings.has(f.listing)) &&
            (f.category === null || view.categories.has(f.category)) &&
            (f.live === null || view.live.has(f.live)) &&
            (f.retiringWithin === null || view.retiring.some((day) => day >= today && day <= f.retiringWithin!))
        : null;
    return new ModelFilterTest(this.packed, this.context, this.maxOutput, this.views, {
      mask,
      want,
      // Without a lifecycle asked for, retired models are left out unless asked for.
      hideRetired: f.lifecycle === null && f.includeRetired !== true,
      minContext: f.minContext ?? 0,
      minOutput: f.minOutput ?? 0,
      prices: f.maxPrice === null ? null : this.lowestIn(f.priceUnit!),
      maxPrice: f.maxPrice ?? Infinity,
      rare,
    });
  }
}

/** What a query's test compares each model with (see ModelFilterColumns.test). */
interface FilterSettings {
  /** The bits of the packed word that are tested, and the value they must have. */
  mask: number;
  want: number;
  hideRetired: boolean;
  /** 0: not tested. */
  minContext: number;
  minOutput: number;
  /** The lowest rates in maxPrice's unit (null: not tested). */
  prices: Float64Array | null;
  maxPrice: number;
  /** The rarer filters, tested on the model's view (null: none set). */
  rare: ((view: ModelView) => boolean) | null;
}

/**
 * One query's filters, ready to test models. A class rather than a closure: every query's test is then
 * the same shape, and the engine inlines `passes` into the loops that call it (a fresh closure per query
 * made the scan of 100,000 models twice as slow).
 */
export class ModelFilterTest {
  private readonly mask: number;
  private readonly want: number;
  private readonly hideRetired: boolean;
  private readonly minContext: number;
  private readonly minOutput: number;
  private readonly prices: Float64Array | null;
  private readonly maxPrice: number;
  private readonly rare: ((view: ModelView) => boolean) | null;

  constructor(
    private readonly packed: Uint32Array,
    private readonly context: Float64Array,
    private readonly maxOutput: Float64Array,
    private readonly views: readonly ModelView[],
    set: FilterSettings,
  ) {
    this.mask = set.mask;
    this.want = set.want;
    this.hideRetired = set.hideRetired;
    this.minContext = set.minContext;
    this.minOutput = set.minOutput;
    this.prices = set.prices;
    this.maxPrice = set.maxPrice;
    this.rare = set.rare;
  }

  passes(i: number): boolean {
    const word = this.packed[i];
    return (
      (word & this.mask) === this.want &&
      (!this.hideRetired || (word & STATUS) !== RETIRED) &&
      (this.minContext === 0 || this.context[i] >= this.minContext) &&
      (this.minOutput === 0 || this.maxOutput[i] >= this.minOutput) &&
      (this.prices === null || this.prices[i] <= this.maxPrice) &&
      (this.rare === null || this.rare(this.views[i]))
    );
  }
}
