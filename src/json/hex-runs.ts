/**
 * One request body's long strings that the size estimate (size-estimate.ts parsedSizeEstimate) found to
 * be hex by decoding them (hex-wasm.ts wasmHexDecodeAhead), carried to the reader (parseJson) in
 * body order. Such a string needs none of the reader's checks (hex holds no quote, backslash,
 * control byte or non-ASCII byte) nor another search for its closing quote, and its view, the
 * one decoded, is what the reader leaves in the parameter's slot: the decoder, handed that view,
 * takes the bytes already decoded. A raw transaction's hex is the body's bulk, and each of those
 * checks was another pass over it.
 */
import type { Buffer } from 'node:buffer';
import { RunsInBodyOrder } from './body-runs.js';

/** Each run's value: the view of the body it decoded. */
export class HexRuns extends RunsInBodyOrder<Buffer> {}
