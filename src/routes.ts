import type { TableRoute } from './contract/route.ts'
import { clockRoutes } from './control/clock.ts'
import { dashboardRoutes } from './control/dashboard/routes.ts'
import { docsRoutes } from './control/docs/routes.ts'
import { controlRoutes } from './control/routes.ts'
import { sandboxRoutes } from './control/sandbox-routes.ts'
import type { SandboxState } from './control/sandbox-state.ts'
import { toolRoutes } from './control/tools-routes.ts'
import { tronRoutes } from './control/tron-routes.ts'
import { llmsRoutes } from './llms/index.ts'
import { batchPayoutRoutes } from './resources/batch-payouts/routes.ts'
import { clientIdRoutes } from './resources/client-ids/routes.ts'
import { commercePaymentRoutes } from './resources/commerce-payments/routes.ts'
import { currencyRoutes } from './resources/currencies/routes.ts'
import { journeyRoutes } from './resources/journeys/routes.ts'
import { orchestratorPageRoutes, orchestratorRoutes } from './resources/orchestrators/routes.ts'
import { payRoutes } from './resources/pay/routes.ts'
import { payeeDestinationRoutes, sessionDestinationRoutes } from './resources/payee-destinations/routes.ts'
import { payerPageRoutes } from './resources/payers/page-routes.ts'
import { payerControlRoutes, payerRoutes } from './resources/payers/routes.ts'
import { paymentDetailControlRoutes, paymentDetailRoutes } from './resources/payment-details/routes.ts'
import { paymentIntentRoutes } from './resources/payment-intents/routes.ts'
import { paymentRoutes } from './resources/payments/routes.ts'
import { payoutRoutes } from './resources/payouts/routes.ts'
import { portalRoutes } from './resources/portal/routes.ts'
import { rateRoutes } from './resources/rates/routes.ts'
import { requestRoutes } from './resources/requests/routes.ts'
import { securePageRoutes } from './resources/secure-payments/page-routes.ts'
import { securePaymentRoutes } from './resources/secure-payments/routes.ts'
import { sessionRoutes } from './resources/sessions/routes.ts'
import { webhookRoutes } from './resources/webhooks/routes.ts'

/** Every route of the sandbox, declared once; both transports serve exactly this table. */
export const routes: readonly TableRoute<SandboxState>[] = [
  ...currencyRoutes,
  ...payRoutes,
  ...paymentIntentRoutes,
  ...requestRoutes,
  ...batchPayoutRoutes,
  ...payoutRoutes,
  ...securePaymentRoutes,
  ...securePageRoutes,
  ...controlRoutes,
  ...llmsRoutes,
  ...clockRoutes,
  ...rateRoutes,
  ...paymentRoutes,
  ...payerRoutes,
  ...paymentDetailRoutes,
  ...clientIdRoutes,
  ...payerControlRoutes,
  ...paymentDetailControlRoutes,
  ...payerPageRoutes,
  ...sessionRoutes,
  ...sandboxRoutes,
  ...toolRoutes,
  ...webhookRoutes,
  ...payeeDestinationRoutes,
  ...sessionDestinationRoutes,
  ...portalRoutes,
  ...journeyRoutes,
  ...orchestratorRoutes,
  ...orchestratorPageRoutes,
  ...commercePaymentRoutes,
  ...tronRoutes,
  // last: the dashboard's page and files are never tested by an API call
  ...dashboardRoutes,
  ...docsRoutes(() => routes),
]
