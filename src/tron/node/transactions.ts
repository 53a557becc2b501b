// The Tron node's transaction building: `triggersmartcontract` (and the same call run as `triggerconstantcontract` or
// `estimateenergy` on anvil), `createtransaction` (a TRX transfer), each built on the latest block (TAPOS) with
// TronGrid's 60 s expiration and encoded as java-tron does, so that its id is sha256(raw_data); the bandwidth a
// signed TRC-20 call takes, for readiness checks.
import { type Hex, keccak256, toHex } from 'viem'
import {
  addrBytes,
  asAddress,
  asInt,
  BASE_GAS,
  blockId,
  buildError,
  DEFAULT_FEE_LIMIT,
  EXPIRATION_MS,
  hexText,
  isHex,
  type Json,
  MAX_GAS,
  out,
  permissionOf,
  sha256,
  strip0x,
  type TronContext,
  WEI_PER_SUN,
} from './context.ts'
import {
  type CONTRACT_TYPE,
  encodeRawData,
  encodeTransfer,
  encodeTrigger,
  type TronRawData,
} from './protobuf.ts'
import type { TronReply } from './types.ts'

/** A transaction ready to sign, built on the latest block (TAPOS) with TronGrid's 60 s expiration. */
async function buildTransaction(
  ctx: TronContext,
  type: keyof typeof CONTRACT_TYPE,
  value: Buffer,
  valueJson: Json,
  feeLimit: bigint | null,
  permissionId: number | undefined,
  visible: boolean,
): Promise<Json> {
  const head = await ctx.latestBlock()
  const id = Buffer.from(blockId(head), 'hex')
  const timestamp = Number(BigInt(head.timestamp)) * 1000
  const raw: TronRawData = {
    refBlockBytes: id.subarray(6, 8),
    refBlockHash: id.subarray(8, 16),
    expiration: timestamp + EXPIRATION_MS,
    contract: { type, value, ...(permissionId ? { permissionId } : {}) },
    timestamp,
    ...(feeLimit ? { feeLimit: Number(feeLimit) } : {}),
  }
  const bytes = encodeRawData(raw)
  return {
    visible,
    txID: sha256(bytes),
    raw_data: {
      contract: [
        {
          parameter: { value: valueJson, type_url: `type.googleapis.com/protocol.${type}` },
          type,
          ...(permissionId ? { Permission_id: permissionId } : {}),
        },
      ],
      ref_block_bytes: raw.refBlockBytes.toString('hex'),
      ref_block_hash: raw.refBlockHash.toString('hex'),
      expiration: raw.expiration,
      ...(feeLimit ? { fee_limit: Number(feeLimit) } : {}),
      timestamp,
    },
    raw_data_hex: bytes.toString('hex'),
  }
}

/** The trigger a body describes (owner, contract, calldata), or a TronGrid refusal. */
function readTrigger(
  body: Json,
): { owner: string; contract: string; data: Hex; callValue: bigint } | TronReply {
  const owner = asAddress(body.owner_address)
  const contract = asAddress(body.contract_address)
  if (!owner) return buildError('CONTRACT_VALIDATE_ERROR', 'Invalid ownerAddress')
  if (!contract) return buildError('CONTRACT_VALIDATE_ERROR', 'Invalid contractAddress')
  let data: string
  if (typeof body.function_selector === 'string' && body.function_selector.trim()) {
    const selector = body.function_selector.replace(/\s*/g, '')
    const parameter = body.parameter ?? ''
    if (!isHex(parameter)) return buildError('OTHER_ERROR', 'parameter must be hex')
    data = keccak256(toHex(selector)).slice(2, 10) + strip0x(parameter)
  } else if (isHex(body.data)) data = strip0x(body.data)
  else return buildError('OTHER_ERROR', 'function_selector or data is required')
  const callValue = asInt(body.call_value, 0n)
  if (callValue === null) return buildError('OTHER_ERROR', 'call_value must be a non-negative integer')
  return { owner, contract, data: `0x${data.toLowerCase()}`, callValue }
}

export async function ethCall(
  ctx: TronContext,
  owner: string,
  contract: string,
  data: Hex,
  callValue: bigint,
) {
  // at most the energy a transaction may burn here: anvil would otherwise run the call for its block gas limit
  const tx = { from: owner, to: contract, data, value: toHex(callValue * WEI_PER_SUN), gas: toHex(MAX_GAS) }
  try {
    const [result, gas] = await Promise.all([
      ctx.rpc<Hex>('eth_call', [tx, 'latest']),
      ctx.rpc<Hex>('eth_estimateGas', [tx]),
    ])
    return { ok: true as const, result: strip0x(result), energy: BigInt(gas) - BASE_GAS }
  } catch (error) {
    const data = (error as { data?: unknown }).data
    return { ok: false as const, result: typeof data === 'string' ? strip0x(data) : '', energy: 0n }
  }
}

export async function trigger(
  ctx: TronContext,
  body: Json,
  mode: 'build' | 'constant' | 'estimate',
): Promise<TronReply> {
  const t = readTrigger(body)
  if ('status' in t) return t
  if (!(await ctx.hasCode(t.contract)))
    return buildError('CONTRACT_VALIDATE_ERROR', 'No contract or not a valid smart contract')
  const visible = body.visible === true
  if (mode === 'build') {
    const feeLimit = asInt(body.fee_limit, DEFAULT_FEE_LIMIT)
    if (feeLimit === null) return buildError('OTHER_ERROR', 'fee_limit must be a non-negative integer')
    const permission = permissionOf(body)
    if (permission === null)
      return buildError('OTHER_ERROR', 'Permission_id must be a small non-negative integer')
    const value = encodeTrigger({
      owner: addrBytes(t.owner),
      contract: addrBytes(t.contract),
      callValue: t.callValue,
      data: Buffer.from(strip0x(t.data), 'hex'),
    })
    const valueJson: Json = {
      data: strip0x(t.data),
      owner_address: out(t.owner, visible),
      contract_address: out(t.contract, visible),
      ...(t.callValue ? { call_value: Number(t.callValue) } : {}),
    }
    const transaction = await buildTransaction(
      ctx,
      'TriggerSmartContract',
      value,
      valueJson,
      feeLimit,
      permission,
      visible,
    )
    return { status: 200, body: { result: { result: true }, transaction } }
  }
  const call = await ethCall(ctx, t.owner, t.contract, t.data, t.callValue)
  if (mode === 'estimate') {
    if (!call.ok) return buildError('CONTRACT_EXE_ERROR', 'REVERT opcode executed')
    return { status: 200, body: { result: { result: true }, energy_required: Number(call.energy) } }
  }
  return {
    status: 200,
    body: {
      result: call.ok
        ? { result: true }
        : { code: 'CONTRACT_EXE_ERROR', message: hexText('REVERT opcode executed') },
      energy_used: Number(call.energy),
      constant_result: [call.result],
    },
  }
}

export async function createTransfer(ctx: TronContext, body: Json): Promise<TronReply> {
  const owner = asAddress(body.owner_address)
  const to = asAddress(body.to_address)
  const amount = asInt(body.amount, -1n)
  if (!owner) return buildError('CONTRACT_VALIDATE_ERROR', 'Invalid ownerAddress')
  if (!to) return buildError('CONTRACT_VALIDATE_ERROR', 'Invalid toAddress')
  if (!amount || amount <= 0n) return buildError('CONTRACT_VALIDATE_ERROR', 'Amount must be greater than 0.')
  if (owner === to) return buildError('CONTRACT_VALIDATE_ERROR', 'Cannot transfer TRX to yourself.')
  if ((await ctx.balanceSun(owner)) < amount)
    return buildError(
      'CONTRACT_VALIDATE_ERROR',
      'Validate TransferContract error, balance is not sufficient.',
    )
  const visible = body.visible === true
  const value = encodeTransfer({ owner: addrBytes(owner), to: addrBytes(to), amount })
  const valueJson = {
    amount: Number(amount),
    owner_address: out(owner, visible),
    to_address: out(to, visible),
  }
  const permission = permissionOf(body)
  if (permission === null)
    return buildError('OTHER_ERROR', 'Permission_id must be a small non-negative integer')
  return {
    status: 200,
    body: await buildTransaction(ctx, 'TransferContract', value, valueJson, null, permission, visible),
  }
}

/** bytes of bandwidth a signed TriggerSmartContract with this calldata uses */
export function bandwidthOf(owner: string, contract: string, data: Hex): number {
  const value = encodeTrigger({
    owner: addrBytes(owner),
    contract: addrBytes(contract),
    callValue: 0n,
    data: Buffer.from(strip0x(data), 'hex'),
  })
  const raw = encodeRawData({
    refBlockBytes: Buffer.alloc(2),
    refBlockHash: Buffer.alloc(8),
    expiration: 1e12 + EXPIRATION_MS,
    contract: { type: 'TriggerSmartContract', value },
    timestamp: 1e12,
    feeLimit: Number(DEFAULT_FEE_LIMIT),
  })
  return raw.length + 3 + 67 + 64
}
