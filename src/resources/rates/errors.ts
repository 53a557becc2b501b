import { FieldListError } from '../../contract/sandbox-error.ts'

/** 400 `Validation failed` naming the rate entry field that cannot be applied. */
export class RateFieldError extends FieldListError {
  override name = 'RateFieldError'
  constructor(field: string, message: string) {
    super([{ field, message }], { withStatusCode: true })
  }
}
