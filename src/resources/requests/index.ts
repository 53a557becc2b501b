// The public module of the requests resource: what other resources may use of it.
export { createRequestAndSchedule } from './create.ts'
export {
  createRequest,
  getRequest,
  getRequestByReference,
  isConversion,
  isFullyPaid,
  remainingUnits,
  setRecurrenceStopped,
  startListening,
} from './model.ts'
export { resumeOfframp } from './offramp.ts'
export { resumeRecurringSchedule } from './recurring.ts'
export { CustomerInfo, type DetectedPayment, type RequestRecord } from './schema.ts'
export { hasBeenPaid } from './status.ts'
export { requestState } from './tables.ts'
export { convertUp, isTronConversion, keepTronQuote } from './tron-conversion.ts'
