/** The agreement and KYC links of a payer page token. */
export function payerLinks(base: string, token: string): { agreementUrl: string; kycUrl: string } {
  return {
    agreementUrl: `${base}/__sandbox/payer-pages/${token}/agreement`,
    kycUrl: `${base}/__sandbox/payer-pages/${token}/kyc`,
  }
}
