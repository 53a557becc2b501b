import { BadRequestError, NotFoundError } from '../../contract/sandbox-error.ts'

/** 400: register and login refuse a caller that already has a live session (as the documents say). */
export class AlreadyLoggedInError extends BadRequestError {
  override name = 'AlreadyLoggedInError'
  constructor() {
    super('Already logged in')
  }
}

/** 400: an email can hold one platform. */
export class EmailTakenError extends BadRequestError {
  override name = 'EmailTakenError'
  constructor() {
    super('Email already registered')
  }
}

/** 400: login with an unknown email or a wrong password (the documents list 400 for a failed login). */
export class InvalidCredentialsError extends BadRequestError {
  override name = 'InvalidCredentialsError'
  constructor() {
    super('Invalid email or password')
  }
}

/** 404 `API key not found` (also for another platform's key). */
export class ApiKeyNotFoundError extends NotFoundError {
  override name = 'ApiKeyNotFoundError'
  constructor() {
    super('API key not found')
  }
}
