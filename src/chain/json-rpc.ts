// A lean JSON-RPC client for the chain's hot reads (balances, allowances, gas price) and the supervisor's probes:
// one POST over a keep-alive node:http socket. viem's clients go through fetch, whose streams, signals and
// retries cost about 1.5 ms of CPU and 20 KB of short-lived objects per read: in the soak of `npm run bench`, the
// /pay and /routes calls (15 % of them) took half of the sandbox's CPU and most of what V8 promoted.
import { Agent as HttpAgent, request as httpRequest, type RequestOptions } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { PublicClient } from 'viem'
import { NOT_JSON_RPC } from '../contract/chain-unreachable.ts'
import { OWN_RPC_HEADERS } from './own-traffic.ts'

/** A JSON-RPC error answer of the node (the call reached it and was refused). */
export class JsonRpcError extends Error {
  override name = 'JsonRpcError'
  constructor(
    readonly method: string,
    readonly code: number,
    detail: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${detail} (JSON-RPC error ${code})`)
  }
}

/** Calls one JSON-RPC method; `timeoutMs` bounds the whole call (default 10 s). */
export type JsonRpcCall = <T>(method: string, params?: unknown[], timeoutMs?: number) => Promise<T>

/**
 * A JSON-RPC caller for `rpcUrl` (http or https; user:password in the URL is sent as Basic auth). Network
 * failures reject with Node's own errors (`code` ECONNREFUSED, ECONNRESET, ETIMEDOUT...), which the 503
 * "Chain unavailable" mapping recognises.
 */
export function jsonRpc(rpcUrl: string): JsonRpcCall {
  const url = new URL(rpcUrl)
  const secure = url.protocol === 'https:'
  const send = secure ? httpsRequest : httpRequest
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true })
  const auth = url.username
    ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    : undefined
  const base: RequestOptions = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port || (secure ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    method: 'POST',
    agent,
    ...(auth ? { auth } : {}),
  }
  let nextId = 0
  return <T>(method: string, params: unknown[] = [], timeoutMs = 10_000) =>
    new Promise<T>((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method, params })
      const req = send(
        {
          ...base,
          headers: {
            ...OWN_RPC_HEADERS,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('error', (error) => {
            clearTimeout(timer)
            reject(error)
          })
          res.on('end', () => {
            clearTimeout(timer)
            // anything but a JSON-RPC answer (a gateway's error page, `null`, a body with neither result nor error) is
            // a node that cannot be used: unreachable (503), never a result of `undefined` or an exception here
            const unusable = () =>
              Object.assign(
                new Error(`${method}: the node at ${url.host} answered ${res.statusCode} without JSON-RPC`),
                { code: NOT_JSON_RPC },
              )
            let answer: { result?: T; error?: { code?: number; message?: string; data?: unknown } }
            try {
              answer = JSON.parse(Buffer.concat(chunks).toString('utf8'))
            } catch {
              reject(unusable())
              return
            }
            if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) reject(unusable())
            else if (answer.error && typeof answer.error === 'object')
              reject(
                new JsonRpcError(
                  method,
                  Number(answer.error.code ?? 0),
                  String(answer.error.message ?? 'error'),
                  answer.error.data,
                ),
              )
            else if (!('result' in answer)) reject(unusable())
            else resolve(answer.result as T)
          })
        },
      )
      const timer = setTimeout(() => {
        const error = Object.assign(new Error(`${method}: no answer from ${url.host} in ${timeoutMs} ms`), {
          code: 'ETIMEDOUT',
        })
        req.destroy(error)
      }, timeoutMs)
      req.on('error', (error) => {
        clearTimeout(timer)
        reject(error)
      })
      req.end(body)
    })
}

const word = (address: string) => address.slice(2).toLowerCase().padStart(64, '0')

/** The uint256 an `eth_call` returned (a view that answered no data is an error, as viem's decoding says). */
function uint256(method: string, hex: string): bigint {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(hex))
    throw new Error(`${method} returned no uint256 (${hex.slice(0, 20)})`)
  return BigInt(hex)
}

/** ERC-20 `balanceOf(owner)`, or the native balance, at the latest block. */
export async function balanceOf(call: JsonRpcCall, token: string, owner: string): Promise<bigint> {
  if (token === 'native') return BigInt(await call<string>('eth_getBalance', [owner, 'latest']))
  const data = `0x70a08231${word(owner)}`
  return uint256('balanceOf', await call<string>('eth_call', [{ to: token, data }, 'latest']))
}

/** ERC-20 `allowance(owner, spender)` at the latest block. */
export async function allowance(
  call: JsonRpcCall,
  token: string,
  owner: string,
  spender: string,
): Promise<bigint> {
  const data = `0xdd62ed3e${word(owner)}${word(spender)}`
  return uint256('allowance', await call<string>('eth_call', [{ to: token, data }, 'latest']))
}

/** Calls a JSON-RPC method that viem's public client does not type (debug_*, anvil_*) through that client. */
export function rawRequest<T>(
  ctx: { publicClient: PublicClient },
  method: string,
  params: unknown[],
): Promise<T> {
  const request = ctx.publicClient.request as unknown as (args: {
    method: string
    params: unknown[]
  }) => Promise<T>
  return request({ method, params })
}
