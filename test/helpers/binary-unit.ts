// fast-check's `unit: 'binary'` (any code point but a surrogate) as the same draw and the same
// mapping, with the inverse computed: fast-check's own builds a map of every code point the first
// time a process makes such a string. Each draw gives the same character, and so the same strings
// for a seed, shrinking alike.
import fc from 'fast-check';

/** Where the surrogates start, and how many there are: the unit skips them. */
const SURROGATES = 0xd800;
const SURROGATE_COUNT = 0x800;
/** Every code point of the unit: those below the surrogates, then those above. */
const UNITS = 0x110000 - SURROGATE_COUNT;

const toUnit = (index: number): string =>
  String.fromCodePoint(index < SURROGATES ? index : index + SURROGATE_COUNT);

/** The draw that gives `value`; throws, as fast-check's does, for anything the unit cannot give. */
function fromUnit(value: unknown): number {
  const point = typeof value === 'string' ? value.codePointAt(0) : undefined;
  const index = point === undefined ? -1 : point < SURROGATES ? point : point - SURROGATE_COUNT;
  if (index < 0 || toUnit(index) !== value) throw new Error('not a single code point outside the surrogates');
  return index;
}

/** One code point outside the surrogates: `fc.string({ unit: binaryUnit })` for `unit: 'binary'`. */
export const binaryUnit: fc.Arbitrary<string> = fc.nat({ max: UNITS - 1 }).map(toUnit, fromUnit);
