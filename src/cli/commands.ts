/** The subcommands of `zecrpc`, in the order its usage lists them. */
export const COMMANDS = ['serve', 'import', 'cli', 'verify', 'compare', 'decode-tx', 'decode-block', 'help'] as const;

export type ZecrpcCommand = (typeof COMMANDS)[number];
