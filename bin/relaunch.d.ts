// Types of relaunch.js for the TypeScript that imports it (the benches); not shipped.
export declare const IMPORT_NODE_OPTIONS: readonly string[];
export declare function relaunchWith(nodeOptions: readonly string[]): Promise<void>;
