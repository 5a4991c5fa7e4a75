/** `zecrpc compare`: replies of a reference node and of zecrpc, compared byte for byte. */
export { runCompare, detectReferenceKind } from './run.js';
export type { CompareOptions, CompareResult, CompareProgress, MethodTally, DifferenceRecord, DriftTally, DeviationTally } from './run.js';
export { HttpEndpoint, InProcessEndpoint } from './endpoint.js';
export type { Endpoint, Reply, HttpEndpointOptions } from './endpoint.js';
export { CompareError } from './errors.js';
export { parseMethodSelection, DEFAULT_METHODS, SUPPORTED_METHODS } from './methods.js';
export { parseHeightRange, selectHeights } from './heights.js';
export type { HeightSelection } from './heights.js';
export { KNOWN_DEVIATIONS } from './deviations.js';
export { compareReplies } from './compare-reply.js';
export type { ReferenceKind, ReplyComparison } from './compare-reply.js';
export { diffJson } from './json-diff.js';
export type { JsonDifference, JsonDiffKind } from './json-diff.js';
export { locateFirstDifference, firstDifferingByte } from './first-difference.js';
export { percentile } from './latency.js';
export type { LatencySummary } from './latency.js';
export { formatReport, formatJson } from './report.js';
export { createCompareProgress } from './progress.js';
