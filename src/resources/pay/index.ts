// The public module of the pay resource: what other resources may use of it.
export { approveTransaction, NO_FEE_ADDRESS } from './calldata.ts'
export { type ConversionQuote, quoteConversion } from './conversion.ts'
export { CHAIN_TO_NETWORK } from './crosschain-source.ts'
export { buildPayment, type PayServiceNames } from './model.ts'
