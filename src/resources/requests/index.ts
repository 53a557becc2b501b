// The door of the requests resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { createRequestAndSchedule } from './create.ts'
export { createDetectionSink, type PaymentListener } from './detection.ts'
export { paymentEventPayload } from './events.ts'
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
export { PaymentReferenceIndex } from './reference-index.ts'
export { requestRoutes } from './routes.ts'
export { CreateRequestBody, CustomerInfo, type DetectedPayment, type RequestRecord } from './schema.ts'
export { hasBeenPaid, statusOf } from './status.ts'
export { requestState } from './tables.ts'
export { convertUp, isTronConversion, keepTronQuote } from './tron-conversion.ts'
