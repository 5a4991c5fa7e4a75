/** The UniValue-compatible JSON layer: value model, compact writer, number formats, reader, getters, pretty form. */
export * from './value.js';
export { JsonWriter, quoteJsonString, formatInteger } from './writer.js';
export { formatAmount, formatDouble } from './number-format.js';
export { JsonParseError, parseJson } from './reader.js';
export { getStr, getInt, getInt64, getBool, getReal, getObj, getArray } from './getters.js';
export { prettyPrint, writePretty } from './pretty.js';
