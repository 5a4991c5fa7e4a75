// Minimal typings for the parts of cli-progress 3.12 the importers use (the package ships none).
declare module 'cli-progress' {
  export interface Options {
    format?: string;
    stream?: NodeJS.WritableStream;
    hideCursor?: boolean;
    clearOnComplete?: boolean;
    etaBuffer?: number;
    fps?: number;
    noTTYOutput?: boolean;
  }
  export class SingleBar {
    constructor(opts: Options, preset?: unknown);
    start(total: number, startValue: number, payload?: Record<string, unknown>): void;
    update(current: number, payload?: Record<string, unknown>): void;
    setTotal(total: number): void;
    stop(): void;
  }
  export const Presets: { shades_classic: unknown; shades_grey: unknown; legacy: unknown; rect: unknown };
  const cliProgress: { SingleBar: typeof SingleBar; Presets: typeof Presets };
  export default cliProgress;
}
