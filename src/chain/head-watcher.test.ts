import { describe, expect, it } from 'vitest'
import { socketUrlOf } from './head-watcher.ts'

describe('socketUrlOf', () => {
  it('reaches anvil over WebSocket on the same host and port as its HTTP RPC', () => {
    expect(socketUrlOf('http://127.0.0.1:8545')).toBe('ws://127.0.0.1:8545/')
    expect(socketUrlOf('https://node.example/rpc')).toBe('wss://node.example/rpc')
    expect(socketUrlOf('ipc:///tmp/anvil.ipc')).toBeNull()
  })
})
