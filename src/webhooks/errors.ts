import { BadRequestError, NotFoundError } from '../contract/sandbox-error.ts'

/** 404 `Webhook not found` (PUT/DELETE of an id the key does not own). */
export class WebhookNotFoundError extends NotFoundError {
  override name = 'WebhookNotFoundError'
  constructor() {
    super('Webhook not found')
  }
}

/** 400 `Webhook already exists` (the key registered this URL already). */
export class WebhookExistsError extends BadRequestError {
  override name = 'WebhookExistsError'
  constructor() {
    super('Webhook already exists')
  }
}

/** 404 `No active webhooks found` (a test send with nothing to send to). */
export class NoActiveWebhooksError extends NotFoundError {
  override name = 'NoActiveWebhooksError'
  constructor() {
    super('No active webhooks found')
  }
}
