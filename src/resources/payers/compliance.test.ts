import { describe, expect, it } from 'vitest'
import { type ComplianceState, completeAgreement, IllegalMove, isCompliant, kycMoves } from './compliance.ts'
import type { KycStatus } from './schema.ts'

const state = (
  agreementStatus: ComplianceState['agreementStatus'],
  kycStatus: KycStatus,
): ComplianceState => ({
  agreementStatus,
  kycStatus,
})

describe('the compliance state machine', () => {
  it('completes a pending agreement and initiates KYC that has not started', () => {
    expect(completeAgreement(state('pending', 'not_started'))).toEqual(state('completed', 'initiated'))
  })
  it('leaves KYC where it is when the agreement completes after a forced KYC move', () => {
    expect(completeAgreement(state('pending', 'approved'))).toEqual(state('completed', 'approved'))
  })
  it('treats completing a completed agreement as harmless', () => {
    const done = state('completed', 'pending')
    expect(completeAgreement(done)).toBe(done)
  })
  it.each(['not_started', 'rejected', 'failed'] as const)(
    'refuses to complete an agreement that is %s',
    (status) => {
      expect(completeAgreement(state(status, 'not_started'))).toBeInstanceOf(IllegalMove)
    },
  )

  it.each([
    ['initiated', 'submit', ['pending']],
    ['retry_required', 'submit', ['pending']],
    ['pending', 'approve', ['approved']],
    ['pending', 'reject', ['rejected']],
    ['initiated', 'approve', ['pending', 'approved']],
    ['retry_required', 'reject', ['pending', 'rejected']],
    ['rejected', 'retry', ['retry_required']],
  ] as const)('moves KYC %s on %s through %j', (from, action, through) => {
    expect(kycMoves(from, action)).toEqual(through)
  })

  it.each([
    ['not_started', 'submit', /complete the agreement first/],
    ['pending', 'submit', /already submitted/],
    ['rejected', 'submit', /retry it first/],
    ['rejected', 'approve', /retry it first/],
    ['approved', 'reject', /already approved/],
    ['initiated', 'retry', /only a rejected KYC/],
    ['failed', 'submit', /failed/],
  ] as const)('refuses KYC %s on %s', (from, action, reason) => {
    const result = kycMoves(from, action)
    expect(result).toBeInstanceOf(IllegalMove)
    expect((result as IllegalMove).message).toMatch(reason)
  })

  it('is compliant only with a completed agreement and an approved KYC', () => {
    expect(isCompliant(state('completed', 'approved'))).toBe(true)
    expect(isCompliant(state('pending', 'approved'))).toBe(false)
    expect(isCompliant(state('completed', 'pending'))).toBe(false)
  })
})
