// The compliance state machine of one payer, as pure functions (the model stores, schedules and emits).
// Agreement: not_started -> pending (links issued) -> completed. KYC: not_started -> initiated (agreement
// completed) -> pending (payer submits) -> approved | rejected; rejected -> retry_required -> pending.
import type { AgreementStatus, KycStatus } from './schema.ts'

/** The two statuses of a payer. */
export interface ComplianceState {
  agreementStatus: AgreementStatus
  kycStatus: KycStatus
}

/** What the payer (or the provider's reviewer) does on the KYC page. */
export type KycAction = 'submit' | 'approve' | 'reject' | 'retry'

/** A move the machine refuses, with the reason shown to the caller (400). */
export class IllegalMove {
  constructor(readonly message: string) {}
}

/** True only when the agreement is completed and KYC approved. */
export function isCompliant(state: ComplianceState): boolean {
  return state.agreementStatus === 'completed' && state.kycStatus === 'approved'
}

/**
 * Completing the agreement (PATCH agreementCompleted, or the agreement page). Completing twice is harmless
 * (same state back); completion initiates KYC when it has not started.
 */
export function completeAgreement(state: ComplianceState): ComplianceState | IllegalMove {
  switch (state.agreementStatus) {
    case 'completed':
      return state
    case 'pending':
      return {
        agreementStatus: 'completed',
        kycStatus: state.kycStatus === 'not_started' ? 'initiated' : state.kycStatus,
      }
    case 'not_started':
      return new IllegalMove('The agreement has not been sent to this payer yet')
    default:
      return new IllegalMove(`The agreement is ${state.agreementStatus} and cannot be completed`)
  }
}

const kycRefusals: Partial<Record<KycStatus, string>> = {
  not_started: 'KYC has not been initiated: the payer must complete the agreement first',
  approved: 'KYC is already approved',
  failed: 'KYC has failed and cannot move again',
}

/**
 * The KYC statuses one action goes through, in order (each is one move and one event): `approve` from
 * `initiated` is a submission then a decision. An illegal action gives the reason instead.
 */
export function kycMoves(kyc: KycStatus, action: KycAction): KycStatus[] | IllegalMove {
  const refusal = kycRefusals[kyc]
  if (refusal) return new IllegalMove(refusal)
  const submittable = kyc === 'initiated' || kyc === 'retry_required'
  switch (action) {
    case 'submit':
      if (submittable) return ['pending']
      if (kyc === 'pending') return new IllegalMove('KYC is already submitted and under review')
      return new IllegalMove('KYC was rejected: retry it first (it moves to retry_required)')
    case 'approve':
    case 'reject': {
      const decision: KycStatus = action === 'approve' ? 'approved' : 'rejected'
      if (kyc === 'pending') return [decision]
      if (submittable) return ['pending', decision]
      return new IllegalMove('KYC was rejected: retry it first (it moves to retry_required)')
    }
    case 'retry':
      if (kyc === 'rejected') return ['retry_required']
      return new IllegalMove(`KYC is ${kyc}: only a rejected KYC can be retried`)
  }
}
