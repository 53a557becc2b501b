import { NotFoundError } from '../../contract/sandbox-error.ts'

/** 404 `Journey not found` (an unknown journeyId, or a txReference no step reported). */
export class JourneyNotFoundError extends NotFoundError {
  override name = 'JourneyNotFoundError'
  constructor() {
    super('Journey not found')
  }
}
