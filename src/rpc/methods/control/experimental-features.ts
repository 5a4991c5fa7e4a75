/**
 * zcashd's experimental-feature flags (src/experimental_features.cpp, v6.12.2): each needs
 * `-experimentalfeatures` as well, or the node refuses to start with zcashd's InitError text.
 * zecrpc serves the insight explorer methods only with `-insightexplorer` or `-lightwalletd`, and
 * answers them otherwise with zcashd's "is disabled" errors and help warnings.
 */

export interface ExperimentalFeatures {
  developerEncryptWallet: boolean;
  developerSetPoolSizeZero: boolean;
  paymentDisclosure: boolean;
  insightExplorer: boolean;
  lightWalletd: boolean;
}

export const NO_EXPERIMENTAL_FEATURES: ExperimentalFeatures = {
  developerEncryptWallet: false,
  developerSetPoolSizeZero: false,
  paymentDisclosure: false,
  insightExplorer: false,
  lightWalletd: false,
};

export class ExperimentalFeatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExperimentalFeatureError';
  }
}

/**
 * InitExperimentalMode: reads the flags (command line or zcash.conf, through `getBoolArg`) and
 * throws zcashd's startup error when one is set without `-experimentalfeatures`.
 */
export function experimentalFeaturesFrom(getBoolArg: (name: string, fallback: boolean) => boolean): ExperimentalFeatures {
  const f: ExperimentalFeatures = {
    developerEncryptWallet: getBoolArg('developerencryptwallet', false),
    developerSetPoolSizeZero: getBoolArg('developersetpoolsizezero', false),
    paymentDisclosure: getBoolArg('paymentdisclosure', false),
    insightExplorer: getBoolArg('insightexplorer', false),
    lightWalletd: getBoolArg('lightwalletd', false),
  };
  if (!getBoolArg('experimentalfeatures', false)) {
    const error = f.developerEncryptWallet
      ? 'Wallet encryption requires -experimentalfeatures.'
      : f.developerSetPoolSizeZero
        ? 'Setting the size of shielded pools to zero requires -experimentalfeatures.'
        : f.paymentDisclosure
          ? 'Payment disclosure requires -experimentalfeatures.'
          : f.insightExplorer
            ? 'Insight explorer requires -experimentalfeatures.'
            : f.lightWalletd
              ? 'Light Walletd requires -experimentalfeatures.'
              : null;
    if (error) throw new ExperimentalFeatureError(error);
  }
  return f;
}

/** GetExperimentalFeatures: the enabled features' names, in zcashd's order. */
export function enabledFeatureNames(f: ExperimentalFeatures): string[] {
  const names: string[] = [];
  if (f.developerEncryptWallet) names.push('developerencryptwallet');
  if (f.developerSetPoolSizeZero) names.push('developersetpoolsizezero');
  if (f.paymentDisclosure) names.push('paymentdisclosure');
  if (f.insightExplorer) names.push('insightexplorer');
  if (f.lightWalletd) names.push('lightwalletd');
  return names;
}

/** experimentalDisabledHelpMsg (src/rpc/server.cpp): the warning a disabled method's help carries. */
export function experimentalDisabledHelpMsg(rpc: string, enableArgs: readonly string[]): string {
  let cmd = '';
  let config = '';
  enableArgs.forEach((arg, i) => {
    if (i === 0) {
      cmd += `-experimentalfeatures and -${arg}`;
      config += `experimentalfeatures=1\n${arg}=1\n`;
    } else {
      cmd += ` or:\n-experimentalfeatures and -${arg}`;
      config += `\nor:\n\nexperimentalfeatures=1\n${arg}=1\n`;
    }
  });
  return (
    `\nWARNING: ${rpc} is disabled.\n` +
    'To enable it, restart zcashd with the following command line options:\n' +
    `${cmd}\n\n` +
    'Alternatively add these two lines to the zcash.conf file:\n\n' +
    config
  );
}

/** The -1 error a disabled method answers with. */
export function disabledMessage(rpc: string): string {
  return `Error: ${rpc} is disabled. Run './zcash-cli help ${rpc}' for instructions on how to enable this feature.`;
}

/** Which flags enable a method: the address index ones take either, getspentinfo only insight. */
export type FeatureGate = 'insight-or-lightwalletd' | 'insight';

export function gateOpen(f: ExperimentalFeatures, gate: FeatureGate): boolean {
  return gate === 'insight' ? f.insightExplorer : f.insightExplorer || f.lightWalletd;
}

export function gateArgs(gate: FeatureGate): string[] {
  return gate === 'insight' ? ['insightexplorer'] : ['insightexplorer', 'lightwalletd'];
}
