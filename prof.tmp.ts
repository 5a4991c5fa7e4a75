import { MAINNET, TESTNET } from './src/chain/network.js';
import { decodeBlock } from './src/codec/block.js';
import { toHex } from './src/codec/hex.js';
import { decodeTransactionHex } from './src/codec/tx/transaction.js';
import { txToJsonBytes } from './src/render/tx.js';
import { parseJson } from './src/json/reader.js';
import { readHexVector } from './test/support/vectors.js';
const cases = [
  ['test141042#1', decodeBlock(readHexVector('blocks','testnet','141042.hex')).transactions[1]!, TESTNET],
  ['main106598#40', decodeBlock(readHexVector('zcashd-2019','106598.hex')).transactions[40]!, MAINNET],
  ['main171059#3', decodeBlock(readHexVector('zcashd-2019','171059.hex')).transactions[3]!, MAINNET],
] as const;
function t(f: () => void, n = 200) { for (let i=0;i<20;i++) f(); const s = performance.now(); for (let i=0;i<n;i++) f(); return ((performance.now()-s)/n*1000).toFixed(0)+'us'; }
for (const [name, tx, net] of cases) {
  const hex = toHex(tx.bytes);
  const body = `{"jsonrpc":"1.0","id":"curltest","method":"decoderawtransaction","params":["${hex}"]}`;
  const buf = Buffer.from(body);
  const out = txToJsonBytes(decodeTransactionHex(hex), net).length;
  console.log(name, tx.size, 'out', out,
    'parse', t(() => parseJson(buf.toString('utf8'))),
    'decode', t(() => decodeTransactionHex(hex)),
    'decode+txid', t(() => { const x = decodeTransactionHex(hex); void x.txid; }),
    'render', t(() => txToJsonBytes(tx, net)),
    'full', t(() => txToJsonBytes(decodeTransactionHex(hex), net)));
}
