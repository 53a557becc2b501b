// The faucet's per-key window on a shared listener: how many faucet calls a key made in the current real-time
// minute. Each mint is a deployer transaction on a chain every key shares, so one stranger looping the faucet would
// hold the deployer's queue (and every other key's mints) hostage. Kept in the key's default world (a Map of its
// declared state, so resets and --state-dir cover it like any other state).
import { defineState, type World } from '../contract/world.ts'

const faucetDef = defineState('faucet', () => ({
  /** `window`: the start of the current minute (epoch ms, real time) and the calls counted in it */
  calls: new Map<string, { startMs: number; count: number }>(),
}))

/** A world's faucet window. */
export function faucetState(world: World) {
  return world.state(faucetDef)
}
