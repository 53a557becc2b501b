// How the Tron node's HTTP API finds the method a path names: a Map of the methods it serves (a name a caller sends
// never reaches an object's prototype: `constructor`, `__proto__`, `toString` are unknown names like any other), the
// full-node methods a solidity node does not serve, and TronGrid's answers for what is not served and for a call the
// node refuses.
import { JsonRpcError } from '../../chain/json-rpc.ts'
import type { TronReply } from './types.ts'

type Json = Record<string, unknown>

/** One method of the node: the call's JSON body, whether it came through `walletsolidity/`. */
export type TronMethod = (body: Json, solidity: boolean) => Promise<TronReply>

/** Methods a full node serves and a solidity node (`walletsolidity/`) does not. */
const FULL_NODE_ONLY = new Set([
  'triggersmartcontract',
  'createtransaction',
  'broadcasttransaction',
  'estimateenergy',
])

/** A table of the node's methods by name (own entries only). */
export function methodTable(methods: Record<string, TronMethod>): ReadonlyMap<string, TronMethod> {
  return new Map(Object.entries(methods))
}

/**
 * Runs the method `path` (`wallet/<name>` or `walletsolidity/<name>`) names: 404 with TronGrid's `Error` body for
 * a path the node does not serve, 400 with it when the node refused what the input made of a call.
 */
export async function callMethod(
  methods: ReadonlyMap<string, TronMethod>,
  path: string,
  body: Json,
): Promise<TronReply> {
  const match = /^(wallet|walletsolidity)\/([a-z0-9]+)$/.exec(path)
  const method = match ? methods.get(match[2]!) : undefined
  if (!match || !method)
    return { status: 404, body: { Error: `${path} is not served by the sandbox's Tron node` } }
  const solidity = match[1] === 'walletsolidity'
  if (solidity && FULL_NODE_ONLY.has(match[2]!))
    return { status: 404, body: { Error: `${path} is not a solidity node method` } }
  try {
    return await method(body, solidity)
  } catch (error) {
    // the node refused what the input made of a call (a value out of range...): the caller's input, a 400
    if (error instanceof JsonRpcError) return { status: 400, body: { Error: error.message } }
    throw error
  }
}

/**
 * What a java-tron node answers a body that is not a JSON object (its servlets parse bodies with fastjson and print
 * the exception as `Error`), with a 400: the caller's input.
 */
export function malformedBody(detail: string): TronReply {
  return { status: 400, body: { Error: `class com.alibaba.fastjson.JSONException : ${detail}` } }
}
