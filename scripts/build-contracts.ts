/**
 * Builds src/chain/artifacts/*.json: compiles our own contracts/*.sol with the npm `solc` package and
 * extracts the Request Network artifacts (ABI + creation bytecode) from @requestnetwork/smart-contracts.
 * Run: `npm run build:contracts` (= `npx tsx scripts/build-contracts.ts`). The output is deterministic.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import vm from 'node:vm'

const require = createRequire(import.meta.url)
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const ARTIFACTS_DIR = join(ROOT, 'src/chain/artifacts')
const RN_PACKAGE = '@requestnetwork/smart-contracts'

/** Request Network contracts copied from the npm package: artifact name -> factory file (under types/factories/src/contracts). */
export const RN_CONTRACTS: Readonly<Record<string, string>> = {
  ERC20FeeProxy: 'ERC20FeeProxy__factory.js',
  EthereumFeeProxy: 'EthereumFeeProxy__factory.js',
  ERC20Proxy: 'ERC20Proxy__factory.js',
  Erc20ConversionProxy: 'Erc20ConversionProxy__factory.js',
  EthConversionProxy: 'EthConversionProxy__factory.js',
  ChainlinkConversionPath: 'ChainlinkConversionPath.sol/ChainlinkConversionPath__factory.js',
  AggregatorMock: 'test/AggregatorMock__factory.js',
  BatchConversionPayments: 'BatchConversionPayments__factory.js',
}

/** Our own contracts: artifact name -> its file under contracts/ (every deployable contract there must be listed). */
export const OWN_CONTRACTS: Readonly<Record<string, string>> = {
  SandboxToken: 'SandboxToken.sol',
  RecurringPaymentProxy: 'RecurringPaymentProxy.sol',
  SandboxPermit2: 'SandboxPermit2.sol',
  SandboxCommerceEscrow: 'SandboxCommerceEscrow.sol',
  SandboxTetherToken: 'SandboxTetherToken.sol',
  SandboxTronBatchPayments: 'SandboxTronBatchPayments.sol',
}

/** solc settings of our own contracts (changing them changes the committed bytecode). */
export const SOLC_SETTINGS = {
  evmVersion: 'cancun',
  optimizer: { enabled: true, runs: 200 },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
} as const

/** One artifact file as written to src/chain/artifacts. */
export interface ArtifactFile {
  contractName: string
  source: string
  solcVersion?: string
  sourceSha256?: string
  abi: unknown[]
  bytecode: string
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[]
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>
}
interface Solc {
  version(): string
  compile(
    input: string,
    callbacks: { import: (path: string) => { contents: string } | { error: string } },
  ): string
}

/** sha256 (hex, no 0x) of a file's bytes. */
export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex')
}

/** Resolves a Solidity import (only npm packages such as @openzeppelin/contracts/...) from node_modules. */
function findImport(path: string): { contents: string } | { error: string } {
  const match = /^(@[^/]+\/[^/]+|[^@/][^/]*)\/(.+)$/.exec(path)
  if (!match) return { error: `cannot resolve import ${path}` }
  try {
    const pkgDir = dirname(require.resolve(`${match[1]}/package.json`))
    return { contents: readFileSync(join(pkgDir, match[2]!), 'utf8') }
  } catch (error) {
    return { error: `cannot resolve import ${path}: ${String(error)}` }
  }
}

/** Compiles every contracts/*.sol; returns one artifact per contract defined in those files. */
export function compileOwnContracts(): ArtifactFile[] {
  const solc = require('solc') as Solc
  const files = readdirSync(join(ROOT, 'contracts'))
    .filter((f) => f.endsWith('.sol'))
    .sort()
  const sources = Object.fromEntries(
    files.map((f) => [`contracts/${f}`, { content: readFileSync(join(ROOT, 'contracts', f), 'utf8') }]),
  )
  const input = { language: 'Solidity', sources, settings: SOLC_SETTINGS }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const solcVersion = solc.version()
  const artifacts: ArtifactFile[] = []
  for (const file of Object.keys(sources)) {
    for (const [contractName, out] of Object.entries(output.contracts?.[file] ?? {})) {
      if (out.evm.bytecode.object === '') continue // interfaces and abstract contracts
      artifacts.push({
        contractName,
        source: 'own',
        solcVersion,
        sourceSha256: sha256File(join(ROOT, file)),
        abi: out.abi,
        bytecode: `0x${out.evm.bytecode.object}`,
      })
    }
  }
  const listed = Object.keys(OWN_CONTRACTS).sort().join(',')
  const built = artifacts
    .map((a) => a.contractName)
    .sort()
    .join(',')
  if (listed !== built) throw new Error(`contracts/ builds [${built}] but OWN_CONTRACTS lists [${listed}]`)
  return artifacts
}

/** Reads a Request Network factory file in a sandbox (the file requires ethers, stubbed here) for its ABI and bytecode. */
function extractRnContract(
  contractName: string,
  factoryFile: string,
  packageDir: string,
  source: string,
): ArtifactFile {
  const code = readFileSync(join(packageDir, 'types/factories/src/contracts', factoryFile), 'utf8')
  const ethersStub = { ContractFactory: class {}, Contract: class {}, utils: { Interface: class {} } }
  const context = {
    exports: {} as Record<string, { abi?: unknown[]; bytecode?: string }>,
    require: (name: string) => {
      if (name === 'ethers') return ethersStub
      throw new Error(`${factoryFile} requires ${name}`)
    },
  }
  vm.runInNewContext(code, context)
  const factory = Object.values(context.exports).find((v) => typeof v?.bytecode === 'string')
  if (!factory?.abi || !factory.bytecode) throw new Error(`no bytecode in ${factoryFile}`)
  return { contractName, source, abi: factory.abi, bytecode: factory.bytecode }
}

/** Extracts the Request Network artifacts listed in RN_CONTRACTS. */
export function extractRnContracts(): ArtifactFile[] {
  const packageJson = require.resolve(`${RN_PACKAGE}/package.json`)
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }
  const source = `${RN_PACKAGE}@${version}`
  return Object.entries(RN_CONTRACTS).map(([name, file]) =>
    extractRnContract(name, file, dirname(packageJson), source),
  )
}

/** Serialises an artifact with a fixed key order. */
export function serializeArtifact(a: ArtifactFile): string {
  const ordered = {
    contractName: a.contractName,
    source: a.source,
    ...(a.solcVersion === undefined ? {} : { solcVersion: a.solcVersion }),
    ...(a.sourceSha256 === undefined ? {} : { sourceSha256: a.sourceSha256 }),
    abi: a.abi,
    bytecode: a.bytecode,
  }
  return `${JSON.stringify(ordered, null, 2)}\n`
}

/** Builds and writes every artifact; returns the written file names. */
export function buildContracts(): string[] {
  mkdirSync(ARTIFACTS_DIR, { recursive: true })
  const artifacts = [...compileOwnContracts(), ...extractRnContracts()]
  return artifacts.map((a) => {
    const file = `${a.contractName}.json`
    writeFileSync(join(ARTIFACTS_DIR, file), serializeArtifact(a))
    return file
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const started = performance.now()
  const written = buildContracts()
  console.log(
    `wrote ${written.length} artifacts in ${Math.round(performance.now() - started)} ms: ${written.join(', ')}`,
  )
}
