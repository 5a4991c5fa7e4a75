/**
 * Long plain strings read as ranges of the request's bytes. A raw transaction's hex is kilobytes
 * to hundreds of kilobytes, and decoderawtransaction only needs its bytes (plainStringBytes):
 * making the string, checking it for control characters and encoding it back to bytes costs
 * more than everything else such a request does (a large transaction's string is even a large
 * object of its own pages). So the reader, when given a scope, leaves such a string as bytes and puts
 * an accessor in its array slot: whoever reads the slot gets the ordinary string, made on the
 * first read and stored in the slot as a plain value from then on. To every other consumer the
 * array is an array of strings like any other.
 *
 * The bytes belong to the request's body, whose memory is reused once the request ends, so a
 * scope is ended with its request: a slot read after that throws, and plainStringBytes answers
 * null, rather than either seeing another request's bytes.
 */
import type { Buffer } from 'node:buffer';
import type { JsonValue } from './value.js';

/**
 * Plain ASCII strings at least this long, as array elements, are left as bytes: an ordinary
 * transaction's hex (a few kilobytes and up) is, while a shorter string (a hash, an address)
 * costs less made at once than behind an accessor.
 */
export const LAZY_STRING_MIN_BYTES = 8 * 1024;

/** The lifetime of the byte ranges one parse leaves: the request whose body they view. */
export class LazyStringScope {
  private open = true;

  get isOpen(): boolean {
    return this.open;
  }

  /** The body's memory may be reused from now on: no range of this scope is read again. */
  end(): void {
    this.open = false;
  }
}

/** An array's byte-range elements by index, kept on the array under a symbol no JSON consumer sees. */
const BYTE_RANGES = Symbol('zecrpc.lazyStringBytes');

interface ByteRange {
  readonly bytes: Buffer;
  readonly scope: LazyStringScope;
  /** The string the element became when first read (a plain element from then on). */
  settled?: string;
}

type WithRanges = JsonValue[] & { [BYTE_RANGES]?: (ByteRange | undefined)[] };

/** `array[index]` as an ordinary data element holding `value` from now on. */
function settle(array: JsonValue[], index: number, value: JsonValue): void {
  Object.defineProperty(array, index, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * The accessor of a lazy element at `index`, one per index for every array and request: the
 * element's range is found on the array it is read from, so defining it allocates nothing.
 */
function accessorAt(index: number): PropertyDescriptor {
  return {
    enumerable: true,
    configurable: true,
    get(this: WithRanges): string {
      const range = this[BYTE_RANGES]![index]!;
      if (!range.scope.isOpen) throw new Error('internal error: a request parameter was read after its request ended');
      const s = range.bytes.toString('latin1');
      range.settled = s;
      settle(this, index, s);
      return s;
    },
    set(this: WithRanges, value: JsonValue) {
      this[BYTE_RANGES]![index] = undefined;
      settle(this, index, value);
    },
  };
}

const accessors: PropertyDescriptor[] = [];

/** Makes `array[index]` the string whose plain ASCII bytes are `bytes`, materialised on first read. */
export function defineLazyString(array: JsonValue[], index: number, bytes: Buffer, scope: LazyStringScope): void {
  const withRanges = array as WithRanges;
  let ranges = withRanges[BYTE_RANGES];
  if (ranges === undefined) {
    ranges = [];
    Object.defineProperty(array, BYTE_RANGES, { value: ranges, enumerable: false });
  }
  ranges[index] = { bytes, scope };
  // Arrays of parameters are short; a long array of long strings gets accessors of its own
  // rather than a table of one per index that would only grow.
  const accessor = index < 64 ? (accessors[index] ??= accessorAt(index)) : accessorAt(index);
  Object.defineProperty(array, index, accessor);
}

/**
 * The bytes (plain ASCII, so also the UTF-8) of `array[index]` when the reader left it as a byte
 * range and its request is still running; null otherwise (the element is then read as usual, as
 * is a string a cache holds, which the reader puts in the slot as that string: known-strings.ts).
 * The view is of the request's body: whoever keeps it past the request must copy it.
 */
export function plainStringBytes(array: readonly JsonValue[], index: number): Buffer | null {
  const range = (array as WithRanges)[BYTE_RANGES]?.[index];
  if (range === undefined || !range.scope.isOpen) return null;
  // Once read, the element is a plain one that a write (or a reordering of the array) replaces
  // without the accessor's setter: the bytes are its own only while it still holds that string.
  const slot = Object.getOwnPropertyDescriptor(array, index);
  if (slot?.get === undefined && slot?.value !== range.settled) return null;
  return range.bytes;
}
