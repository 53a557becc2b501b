import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  compileOwnContracts,
  RN_CONTRACTS,
  serializeArtifact,
  sha256File,
} from '../../scripts/build-contracts.ts'
import { ARTIFACT_NAMES, artifacts } from './artifacts.ts'

const REBUILD = 'run `npm run build:contracts` and commit src/chain/artifacts'

describe('committed artifacts', () => {
  it('are all loaded with an ABI and creation bytecode', () => {
    for (const name of ARTIFACT_NAMES) {
      const artifact = artifacts[name]
      expect(artifact.contractName).toBe(name)
      expect(artifact.abi.length).toBeGreaterThan(0)
      expect(artifact.bytecode).toMatch(/^0x(?:[0-9a-f]{2})+$/)
    }
    for (const name of Object.keys(RN_CONTRACTS)) {
      expect(artifacts[name as keyof typeof artifacts].source).toBe('@requestnetwork/smart-contracts@0.48.0')
    }
    expect(artifacts.SandboxToken.source).toBe('own')
  })

  it('SandboxToken.json matches a fresh compile of contracts/SandboxToken.sol', () => {
    const solFile = fileURLToPath(new URL('../../contracts/SandboxToken.sol', import.meta.url))
    const committed = artifacts.SandboxToken
    expect(committed.sourceSha256, `contracts/SandboxToken.sol changed: ${REBUILD}`).toBe(sha256File(solFile))
    const fresh = compileOwnContracts().find((a) => a.contractName === 'SandboxToken')!
    expect(fresh.solcVersion).toBe(committed.solcVersion)
    expect(fresh.bytecode, `bytecode differs: ${REBUILD}`).toBe(committed.bytecode)
    expect(fresh.abi).toEqual(committed.abi)
    const file = readFileSync(new URL('./artifacts/SandboxToken.json', import.meta.url), 'utf8')
    expect(serializeArtifact(fresh)).toBe(file)
  }, 60_000)

  it('SandboxPermit2.json matches a fresh compile of contracts/SandboxPermit2.sol', () => {
    const solFile = fileURLToPath(new URL('../../contracts/SandboxPermit2.sol', import.meta.url))
    const committed = artifacts.SandboxPermit2
    expect(committed.source).toBe('own')
    expect(committed.sourceSha256, `contracts/SandboxPermit2.sol changed: ${REBUILD}`).toBe(
      sha256File(solFile),
    )
    const fresh = compileOwnContracts().find((a) => a.contractName === 'SandboxPermit2')!
    expect(fresh.solcVersion).toBe(committed.solcVersion)
    expect(fresh.bytecode, `bytecode differs: ${REBUILD}`).toBe(committed.bytecode)
    expect(fresh.abi).toEqual(committed.abi)
    const file = readFileSync(new URL('./artifacts/SandboxPermit2.json', import.meta.url), 'utf8')
    expect(serializeArtifact(fresh)).toBe(file)
  }, 60_000)
})
