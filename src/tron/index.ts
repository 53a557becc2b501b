// The Tron feature's door: the `T…` address codec, the TronGrid-style full node the sandbox serves over its `tron`
// chain (its prices and the protobuf of its transactions) and the /tron routes that serve it. The node is
// node/node.ts (its methods in node/*.ts); the address codec is address.ts, a leaf that contract/ and chain/ import.
export {
  addressOnNetwork,
  isTronAddress,
  TRON_CHECKSUM_MESSAGE,
  TRON_NETWORK,
  toEvmAddress,
  toTronAddress,
  tronChecksumFails,
  tronHex,
} from './address.ts'
export { WEI_PER_SUN } from './node/node.ts'
export { encodeRawData, encodeTransfer, encodeTrigger } from './node/protobuf.ts'
export type { TronNode } from './node/types.ts'
export { tronReadiness } from './readiness.ts'
export { TRON_PATH, tronRoutes } from './routes.ts'
export { readTrc20Call, signStepWith, tronExecuted } from './signed.ts'
export { TRON_FEE_LIMIT, type TronStep, tronStep } from './steps.ts'
