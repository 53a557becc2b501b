import { defineState, type World } from '../../contract/world.ts'

const sessionTokensDef = defineState('session-tokens', () => ({
  /**
   * the tokens of the directory this key opened, kept in its default world so a count reads them, not every key's:
   * in memory only (the directory is what --state-dir keeps), filled from the directory on the world's first use
   */
  tokens: new Set<string>(),
  filled: false,
}))

/** The index of the key's session tokens, kept in its default world. */
export function sessionTokenState(world: World) {
  return world.state(sessionTokensDef)
}
