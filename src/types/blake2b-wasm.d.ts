declare module 'blake2b-wasm' {
  interface Blake2bWasmState {
    update(input: Uint8Array): Blake2bWasmState;
    digest(): Uint8Array;
    digest(enc: 'hex'): string;
  }
  interface Blake2bWasmFactory {
    (outlen?: number, key?: Uint8Array, salt?: Uint8Array, personal?: Uint8Array, noAssert?: boolean): Blake2bWasmState;
    SUPPORTED: boolean;
    ready(cb: (err?: Error) => void): void;
  }
  const blake2b: Blake2bWasmFactory;
  export default blake2b;
}
