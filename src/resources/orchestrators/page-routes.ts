// The pages orchestrators bring (page/page.ts builds them: plain HTML, no script): the hosted onboarding page of
// link intents (public: the token is the credential) and the bundled branding assets; and the dashboard's read of
// the caller's orchestrator state.
import { z } from 'zod'
import { routesUsing } from '../../contract/route.ts'
import { NotFoundError } from '../../contract/sandbox-error.ts'
import { inWorld, type Services } from '../services.ts'
import { orchestratorBranding } from './branding.ts'
import { IntentUnavailableError, OrchestratorRequestError } from './errors.ts'
import { completeOnboarding, findIntent, intentRefusal } from './links.ts'
import { OnboardingLimitError } from './onboarding-limits.ts'
import { orchestratorOverview } from './overview.ts'
import { BRANDING_ASSETS, ONBOARDING_CSP, onboardingPage, onboardingResultPage } from './page/page.ts'

type OrchestratorServices = Services<
  'currencies' | 'directory' | 'events' | 'ids' | 'onboarding' | 'portal' | 'webhooks' | 'worlds'
>
const defineRoute = routesUsing<OrchestratorServices>()

const TokenQuery = z.object({ token: z.string().min(1).max(200) })

/** The sandbox's token ids a platform may choose as its destination (ERC-20 on the live networks first). */
function destinationTokens(ctx: Pick<OrchestratorServices, 'currencies'>) {
  return ctx.currencies.all
    .filter((c) => c.type === 'ERC20')
    .map((c) => ({ id: c.id, label: `${c.symbol} on ${c.network}` }))
}

const html = (body: string, status = 200) => ({
  status,
  body,
  contentType: 'text/html; charset=utf-8',
  headers: { 'content-security-policy': ONBOARDING_CSP },
})

/** The intent behind a page's token and its orchestrator's branding, or the page refusing it (404, 410). */
function openIntent(ctx: Pick<OrchestratorServices, 'directory' | 'worlds'>, token: string) {
  const found = findIntent(ctx, token)
  if (!found)
    return {
      refused: html(
        onboardingResultPage('Link not found', 'This onboarding link does not exist.', null),
        404,
      ),
    }
  const branding = orchestratorBranding(found.world)
  const refusal = intentRefusal(found.world, found.intent)
  if (refusal) return { refused: html(onboardingResultPage('Link unavailable', refusal, branding), 410) }
  return { found, branding }
}

/** The hosted onboarding page (public: the token is the credential), the bundled branding assets, the dashboard's read. */
export const orchestratorPageRoutes = [
  defineRoute({
    method: 'GET',
    path: '/__sandbox/orchestrator',
    credentials: ['api-key', 'orchestrator-key'],
    surface: 'control',
    summary:
      "The caller's orchestrator state for the dashboard: linked client IDs, intents, fee configs, branding rows",
    statuses: [200],
    handler: (ctx) => ({ status: 200, body: orchestratorOverview(ctx) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/orchestrator-onboarding',
    credentials: ['public'],
    surface: 'control',
    summary: "The hosted onboarding page of a link intent (the intent's url)",
    statuses: [200, 404, 410],
    query: TokenQuery,
    handler(ctx, { query }) {
      const open = openIntent(ctx, query.token)
      if (open.refused) return open.refused
      return html(onboardingPage(open.found.intent, open.branding, destinationTokens(ctx)))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/orchestrator-onboarding',
    credentials: ['public'],
    surface: 'control',
    summary:
      'Completes a link intent: the platform confirms its wallet, destination token and screening choice',
    statuses: [200, 400, 404, 410, 429],
    query: TokenQuery,
    rawBody: true,
    async handler(ctx, { query, request }) {
      const open = openIntent(ctx, query.token)
      if (open.refused) return open.refused
      const { found, branding } = open
      const form = new URLSearchParams(request.rawBody ?? '')
      const walletAddress = form.get('walletAddress')?.trim() ?? ''
      const currency = form.get('currency') ?? ''
      const kyt = form.get('kyt') ?? 'none'
      const again = (error: string) =>
        html(onboardingPage(found.intent, branding, destinationTokens(ctx), error), 400)
      if (!/^0x[0-9a-fA-F]{40}$/.test(walletAddress))
        return again('Enter a wallet address (0x and 40 hex digits)')
      if (form.get('confirm') !== 'yes') return again('Confirm the connection to continue')
      if (!['none', 'hypernative', 'merklescience'].includes(kyt)) return again('Choose a screening option')
      try {
        const done = await completeOnboarding(inWorld(ctx, found.world), found, {
          walletAddress,
          currency,
          kyt: kyt as 'none' | 'hypernative' | 'merklescience',
        })
        return html(
          onboardingResultPage(
            'Connected',
            `Your client ID is linked. Payments go to ${done.destination.walletAddress} in ${done.destination.currency}.`,
            branding,
            done.clientId,
          ),
        )
      } catch (error) {
        if (error instanceof IntentUnavailableError)
          return html(onboardingResultPage('Link unavailable', error.message, branding), 410)
        if (error instanceof OnboardingLimitError)
          return html(onboardingResultPage('Too many platforms', error.message, branding), 429)
        if (error instanceof OrchestratorRequestError || (error as { status?: number }).status === 400)
          return again((error as Error).message)
        throw error
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/branding/:brand/:file',
    credentials: ['public'],
    surface: 'control',
    summary: 'Branding assets bundled with the Secure Payment app (logoPath, termsPath, privacyPath)',
    statuses: [200, 404],
    params: z.object({ brand: z.string(), file: z.string() }),
    handler(_ctx, { params }) {
      const path = `/branding/${params.brand}/${params.file}`
      const asset = BRANDING_ASSETS[path]
      if (!asset) throw new NotFoundError(`Cannot GET ${path}`)
      return { status: 200, body: asset.body, contentType: asset.contentType }
    },
  }),
]
