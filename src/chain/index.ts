// The chain's public module: what the rest of the sandbox (resources, control, sandbox, transports, tests) may use
// of src/chain/. Nothing outside src/chain/ imports another file of it.
export * from './abis.ts'
export { pinBaseFee } from './base-fee.ts'
export {
  backToBaseline,
  takeBaseline,
} from './baseline.ts'
export {
  COMMERCE_ESCROW,
  COMMERCE_ESCROW_ADDRESS,
  commerceEscrowAbi,
  type EscrowEvent,
  type EscrowHold,
  type EscrowWatcher,
  readEscrowHold,
  refreshCommerceEscrow,
  watchCommerceEscrow,
} from './commerce-escrow.ts'
export {
  type ConversionStack,
  FEED_DECIMALS,
  type FeedSpec,
  installConversionStack,
  installFeeds,
  readConversion,
  sandboxAddress,
} from './conversion-contracts.ts'
export {
  type DetectedTransfer,
  type DetectorSink,
  PaymentDetector,
  type ProxyKind,
  startDetector,
} from './detector.ts'
export { PERMIT2_ADDRESS } from './install-contracts.ts'
export {
  createOperator,
  type SandboxOperator,
} from './operator.ts'
export {
  blockNumber,
  currentGasPrice,
  eip2612Nonce,
  feeProxyPayments,
  permit2NonceFree,
  setNativeBalance,
  transactionWithReceipt,
} from './reads.ts'
export {
  permitStruct,
  RECURRING_PROXY,
  SCHEDULE_PERMIT_TYPES,
  type SchedulePermitValues,
  schedulePermitDomain,
} from './recurring.ts'
export {
  createRelayer,
  type Relayer,
  RelayFailure,
} from './relayer.ts'
export {
  newDeploymentSecret,
  sandboxKeys,
} from './sandbox-keys.ts'
export {
  type ApiTransaction,
  revertReason,
  sendApiTransactions,
  serialQueue,
} from './sender.ts'
export {
  DEFAULT_MNEMONIC,
  type StartedChain,
  startChain,
} from './start-chain.ts'
export {
  type ChainSupervisor,
  hasCode,
  superviseChain,
} from './supervisor.ts'
export {
  chainTime,
  syncChainTime,
} from './time.ts'
export type {
  ChainContracts,
  ChainCurrency,
  LiveChain,
  NetworkName,
  SandboxAccount,
  SandboxKeys,
  SandboxRoles,
  StartChainOptions,
} from './types.ts'
