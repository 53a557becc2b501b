import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  compileOwnContracts,
  OWN_CONTRACTS,
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
      expect(artifacts[name as keyof typeof artifacts].source).toBe('@requestnetwork/smart-contracts@0.47.0')
    }
    for (const name of Object.keys(OWN_CONTRACTS)) {
      expect(artifacts[name as keyof typeof artifacts].source).toBe('own')
    }
  })

  it('every own artifact matches a fresh compile of its contracts/*.sol file', () => {
    const fresh = compileOwnContracts()
    expect(fresh.map((a) => a.contractName).sort()).toEqual(Object.keys(OWN_CONTRACTS).sort())
    for (const [name, sol] of Object.entries(OWN_CONTRACTS)) {
      const solFile = fileURLToPath(new URL(`../../contracts/${sol}`, import.meta.url))
      const committed = artifacts[name as keyof typeof artifacts]
      expect(committed.sourceSha256, `contracts/${sol} changed: ${REBUILD}`).toBe(sha256File(solFile))
      const compiled = fresh.find((a) => a.contractName === name)!
      expect(compiled.solcVersion).toBe(committed.solcVersion)
      expect(compiled.bytecode, `${name} bytecode differs: ${REBUILD}`).toBe(committed.bytecode)
      expect(compiled.abi).toEqual(committed.abi)
      const file = readFileSync(new URL(`./artifacts/${name}.json`, import.meta.url), 'utf8')
      expect(serializeArtifact(compiled)).toBe(file)
    }
  }, 60_000)
})
