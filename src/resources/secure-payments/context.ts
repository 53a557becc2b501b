// The services secure payments use: what the pay builder, the batch builder, payment intents and requests need,
// plus the worlds (a token names its link in whichever world holds it).
import type { PayServiceNames } from '../pay/index.ts'
import type { Services, Uses } from '../services.ts'

type Names = PayServiceNames

/** The services alone (token routes and listeners, which carry no caller). */
export type SecureServices = Services<Names>
/** The services with a call scope (a caller's world, or a link owner's through inWorld). */
export type Ctx = Uses<Names>
