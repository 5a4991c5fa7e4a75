export const BUILT_FROM_FILE: string;
export function wasmSourcesDigest(root: string): string;
