import type { TableRoute } from './contract/route.ts'
import { clockRoutes } from './control/clock.ts'
import { dashboardRoutes } from './control/dashboard/routes.ts'
import { docsRoutes } from './control/docs/routes.ts'
import { controlRoutes } from './control/routes.ts'
import { sandboxRoutes } from './control/sandbox-routes.ts'
import type { SandboxState } from './control/services.ts'
import { toolRoutes } from './control/tools-routes.ts'
import { llmsRoutes } from './llms/index.ts'
import { batchPayoutRoutes } from './resources/batch-payouts/index.ts'
import { clientIdRoutes } from './resources/client-ids/index.ts'
import { commercePaymentRoutes } from './resources/commerce-payments/index.ts'
import { currencyRoutes } from './resources/currencies/index.ts'
import { journeyRoutes } from './resources/journeys/index.ts'
import { orchestratorPageRoutes, orchestratorRoutes } from './resources/orchestrators/index.ts'
import { payRoutes } from './resources/pay/index.ts'
import { payeeDestinationRoutes, sessionDestinationRoutes } from './resources/payee-destinations/index.ts'
import { payerControlRoutes, payerPageRoutes, payerRoutes } from './resources/payers/index.ts'
import { paymentDetailControlRoutes, paymentDetailRoutes } from './resources/payment-details/index.ts'
import { paymentIntentRoutes } from './resources/payment-intents/index.ts'
import { paymentRoutes } from './resources/payments/index.ts'
import { payoutRoutes } from './resources/payouts/index.ts'
import { portalRoutes } from './resources/portal/index.ts'
import { rateRoutes } from './resources/rates/index.ts'
import { requestRoutes } from './resources/requests/index.ts'
import { securePageRoutes, securePaymentRoutes } from './resources/secure-payments/index.ts'
import { sessionRoutes } from './resources/sessions/index.ts'
import { tronRoutes } from './tron/index.ts'
import { webhookRoutes } from './webhooks/index.ts'

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
