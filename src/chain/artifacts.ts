import { readFileSync } from 'node:fs'
import type { Abi, Hex } from 'viem'

/** Names of the committed artifacts in src/chain/artifacts (built by `npm run build:contracts`). */
export const ARTIFACT_NAMES = [
  'SandboxToken',
  'SandboxTetherToken',
  'SandboxPermit2',
  'RecurringPaymentProxy',
  'SandboxCommerceEscrow',
  'SandboxTronBatchPayments',
  'ERC20FeeProxy',
  'EthereumFeeProxy',
  'ERC20Proxy',
  'Erc20ConversionProxy',
  'EthConversionProxy',
  'ChainlinkConversionPath',
  'AggregatorMock',
  'BatchConversionPayments',
] as const

/** Name of a committed artifact. */
export type ArtifactName = (typeof ARTIFACT_NAMES)[number]

/** A contract's ABI and creation bytecode, and where they come from. */
export interface ContractArtifact {
  contractName: string
  /** 'own' (compiled from contracts/) or the npm package the artifact was extracted from */
  source: string
  abi: Abi
  bytecode: Hex
  /** own contracts only: compiler version and sha256 of the .sol file compiled */
  solcVersion?: string
  sourceSha256?: string
}

/** Reads one artifact JSON file from src/chain/artifacts. */
export function loadArtifact(name: string): ContractArtifact {
  const url = new URL(`./artifacts/${name}.json`, import.meta.url)
  const artifact = JSON.parse(readFileSync(url, 'utf8')) as ContractArtifact
  if (!artifact.bytecode?.startsWith('0x') || !Array.isArray(artifact.abi)) {
    throw new Error(`artifact ${name} has no abi or bytecode`)
  }
  return Object.freeze(artifact)
}

/** Every committed artifact, by name (read once when this module loads). */
export const artifacts: Readonly<Record<ArtifactName, ContractArtifact>> = Object.freeze(
  Object.fromEntries(ARTIFACT_NAMES.map((name) => [name, loadArtifact(name)])) as Record<
    ArtifactName,
    ContractArtifact
  >,
)
