// The orchestrator endpoints' refusals. The pages name the cases (a second link, a second branding create, a
// duplicate webhook URL, a duplicate flow and bearer pair, immutable fields); the messages are the sandbox's own,
// in Nest's `{statusCode, message, error}` shape like the service's other refusals.
import { BadRequestError, NotFoundError, SandboxError } from '../../contract/sandbox-error.ts'

/** 409 with a plain message. */
export class OrchestratorConflictError extends SandboxError {
  override name = 'OrchestratorConflictError'
  constructor(message: string) {
    super(409, message)
  }
}

/** 404 for something of another orchestrator or that does not exist. */
export class OrchestratorNotFoundError extends NotFoundError {
  override name = 'OrchestratorNotFoundError'
}

/** 400 for a rule of the pages that a schema cannot express. */
export class OrchestratorRequestError extends BadRequestError {
  override name = 'OrchestratorRequestError'
}

/** 409: a client ID has (or had) a link record. */
export class AlreadyLinkedError extends OrchestratorConflictError {
  override name = 'AlreadyLinkedError'
  constructor() {
    super('Client ID already has an orchestrator link')
  }
}

/** 403: a direct link without the client ID's owner's consent (its owner's API key). */
export class ConsentRequiredError extends SandboxError {
  override name = 'ConsentRequiredError'
  constructor(clientId: string) {
    super(
      403,
      `Linking ${clientId} needs its owner's consent: send the owner's API key as x-api-key with this call, or create ` +
        'a link intent (POST /v2/orchestrators/client-id-link-intents) for the platform to confirm',
    )
  }
}

/** 404: no active link between this orchestrator and that client ID. */
export class NotLinkedError extends OrchestratorNotFoundError {
  override name = 'NotLinkedError'
  constructor() {
    super('Client ID is not linked to this orchestrator')
  }
}

/** 410: a link intent that was used (or is being used) or has expired; the onboarding page shows it as such. */
export class IntentUnavailableError extends SandboxError {
  override name = 'IntentUnavailableError'
  constructor(message: string) {
    super(410, message)
  }
}
