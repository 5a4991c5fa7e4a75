/** One damaged thing `zecrpc verify` reports (scan.ts, leveldb-files.ts). */
export interface StoreProblem {
  /** What is damaged: a block (hash), a file and offset, or an index key. */
  where: string;
  problem: string;
}
