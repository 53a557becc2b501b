import { OneFieldError } from '../../contract/sandbox-error.ts'

/** 400 `Validation failed` naming `rates.<index>.<field>` of a POST /__sandbox/rates body the rates cannot apply. */
export class RateEntryError extends OneFieldError {
  override name = 'RateEntryError'
  constructor(index: number, field: 'from' | 'to' | 'rate', message: string) {
    super(`rates.${index}.${field}`, message)
  }
}
