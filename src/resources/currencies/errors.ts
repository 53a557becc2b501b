import { IssueListError, NotFoundError } from '../../contract/sandbox-error.ts'

/** 404 `Token not found`: an unknown id, or one that does not match the query's network and symbol. */
export class TokenNotFoundError extends NotFoundError {
  override name = 'TokenNotFoundError'
  constructor() {
    super('Token not found')
  }
}

/** 400 with the zod issue list the service answers for a misused `firstOnly` query parameter. */
export class FirstOnlyError extends IssueListError {
  override name = 'FirstOnlyError'
  constructor(message: string) {
    super([{ code: 'custom', message, path: ['firstOnly'] }])
  }
}
