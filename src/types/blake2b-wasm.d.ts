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

/** The package's compiled module: instantiates blake2b.wat and resolves to its exports. */
declare module 'blake2b-wasm/blake2b.js' {
  const load: (imports?: WebAssembly.Imports) => Promise<WebAssembly.Exports>;
  export default load;
}
