import { BadRequestError, NotFoundError, SandboxError } from '../../contract/sandbox-error.ts'

/** 404: in strict mode (--api-keys) the portal is off unless --portal turns it on. */
export class PortalOffError extends NotFoundError {
  override name = 'PortalOffError'
  constructor() {
    super('The portal is off in strict mode (--api-keys): start the sandbox with --portal to use it')
  }
}

/** 429: registrations and key creations are limited per client address. */
export class SignupRateError extends SandboxError {
  override name = 'SignupRateError'
  constructor(perMinute: number) {
    super(429, `Too many accounts or keys created from this address: at most ${perMinute} a minute`)
  }
}

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
