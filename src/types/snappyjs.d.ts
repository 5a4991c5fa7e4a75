declare module 'snappyjs' {
  /** Decompresses a raw Snappy block (not the framing format); the output has the input's type. */
  function uncompress<T extends Uint8Array | ArrayBuffer>(compressed: T, maxLength?: number): T;
  function compress<T extends Uint8Array | ArrayBuffer>(uncompressed: T): T;
  const snappy: { uncompress: typeof uncompress; compress: typeof compress };
  export default snappy;
}
