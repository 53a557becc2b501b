// The share of a sandbox-wide total that the keys of claimable sandboxes (--claimable) hold together: half of it, so
// that strangers' claimed keys, each within its own per-key bounds, never fill a total the operator's keys need
// (streams, MCP sessions, worlds in memory, snapshot bytes, journal bytes). Past it a claimed key is refused, or its
// oldest is evicted, while the other keys keep the rest.

/** Whether a key is a claimed one (a claimable sandbox's, live or expired). */
export type ClaimedKeys = (key: string) => boolean

/** What claimed keys together may hold of `total`: half of it, at least 1. */
export function claimedShare(total: number): number {
  return Math.max(1, Math.floor(total / 2))
}

/** The sentence a refusal past the share ends with: what claimed keys hold at most (`held`), the total's flag. */
export function claimedShareNote(held: string, flag: string): string {
  return `claimable sandboxes together hold at most ${held} (half of ${flag}; the rest is kept for the server's other keys): try again later, or ask the operator for a higher ${flag}`
}
