/**
 * The cross-chain fee the sandbox's operator takes, as a percentage of the payment (the documents' example
 * intent charges 0.1%). Payment routes quote it and /pay's intents charge it: one constant, one unit.
 */
export const CROSSCHAIN_FEE_PERCENT = '0.1'
