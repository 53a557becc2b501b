// The sandbox's Tron full node: the subset of TronGrid's HTTP API (wallet/* and walletsolidity/*) that TronWeb uses
// to read accounts and resources, build TRC-20 calls, estimate energy, broadcast and read transactions, served over
// the anvil of the `tron` network. Addresses are the EVM addresses behind `T…` ones; TRX is the chain's native
// balance (1 sun = 10^12 wei, so 1 TRX = 1 ether of the anvil); energy is EVM gas above the 21,000 base.
//
// Broadcast checks what a Tron node checks that matters to a client (the transaction id is sha256 of raw_data, a
// secp256k1 signature of its owner over that id, no duplicate, not expired, a recent reference block, enough
// bandwidth) and then executes the contract on anvil as its owner (impersonated: the signature is the authority).
// Resource accounting, kept simple but consistent between estimate, readiness and receipt:
//   bandwidth = the signed transaction's bytes (+64 for its result); each account gets 600 free a day (UTC day of the
//     chain's clock), beyond that 1,000 sun a byte are burnt;
//   energy = gas used - 21,000, burnt at 100 sun each (nobody has staked energy); the limit is min(fee_limit,
//     balance) / 100, exceeded = OUT_OF_ENERGY, the whole limit burnt.
// What the node keeps of its transactions lives in this object (the chain's own memory, like anvil's): ids of a
// previous run are not found again after a restart.
import { createHash } from 'node:crypto'
import { type Hex, keccak256, recoverAddress, toHex } from 'viem'
import { toEvmAddress, toTronAddress, tronHex } from '../../contract/tron-address.ts'
import { callMethod, methodTable } from './methods.ts'
import {
  CONTRACT_TYPE,
  decodeRawData,
  decodeTransfer,
  decodeTrigger,
  encodeRawData,
  encodeTransfer,
  encodeTrigger,
  type TronRawData,
} from './protobuf.ts'
import type { TronChain, TronNode, TronReply } from './types.ts'

/** sun burnt per unit of energy (the chain parameter getEnergyFee) */
export const ENERGY_PRICE_SUN = 100n
/** sun burnt per byte of bandwidth beyond the free allowance (getTransactionFee) */
export const BANDWIDTH_PRICE_SUN = 1000n
/** free bandwidth per account per day (getFreeNetLimit) */
export const FREE_BANDWIDTH = 600
/** wei of the anvil per sun */
export const WEI_PER_SUN = 10n ** 12n
/** gas every EVM call costs that Tron does not count as energy */
const BASE_GAS = 21_000n
/** The most energy one call may burn, and the gas that makes on anvil. */
const MAX_ENERGY = 10_000_000n
const MAX_GAS = BASE_GAS + MAX_ENERGY
/** TronWeb's default fee_limit (150 TRX) when a call has none */
const DEFAULT_FEE_LIMIT = 150_000_000n
/** how long a built transaction may wait before broadcast (TronGrid: 60 s) */
const EXPIRATION_MS = 60_000

type Json = Record<string, unknown>

interface TronTxRecord {
  txID: string
  transaction: Json
  evmHash: Hex | null
  blockNumber: number
  blockTimeStamp: number
  result: 'SUCCESS' | 'REVERT' | 'OUT_OF_ENERGY'
  contractResult: string
  energyUsage: bigint
  energyFee: bigint
  netUsage: number
  netFee: bigint
  contractAddress: string | null
  logs: { address: string; topics: string[]; data: string }[]
  resMessage?: string
}

interface RawBlock {
  number: Hex
  hash: Hex
  parentHash: Hex
  timestamp: Hex
  transactionsRoot: Hex
  miner: Hex
}

interface RawReceipt {
  status: Hex
  gasUsed: Hex
  blockNumber: Hex
  contractAddress: Hex | null
  logs: { address: Hex; topics: Hex[]; data: Hex }[]
}

const hexText = (text: string) => Buffer.from(text, 'utf8').toString('hex')
const strip0x = (h: string) => h.replace(/^0x/i, '')
const addrBytes = (address: string) => Buffer.from(tronHex(address), 'hex')
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex')

/** An error answer as TronGrid writes it for a refused build: the message hex-encoded. */
function buildError(code: string, message: string): TronReply {
  return { status: 200, body: { result: { code, message: hexText(message) } } }
}

function isHex(v: unknown): v is string {
  return typeof v === 'string' && /^(0x)?([0-9a-fA-F]{2})*$/.test(v)
}

function asAddress(v: unknown): string | null {
  if (typeof v !== 'string') return null
  try {
    return toEvmAddress(v)
  } catch {
    return null
  }
}

function asInt(v: unknown, fallback: bigint): bigint | null {
  if (v === undefined || v === null) return fallback
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v)
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v)
  return null
}

/** A build's Permission_id: undefined when absent, null when not a small non-negative integer. */
function permissionOf(body: Json): number | undefined | null {
  const v = body.Permission_id
  if (v === undefined || v === null) return undefined
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffff ? v : null
}

/** Builds the node of a live chain (its network must be `tron`). */
export function createTronNode(chain: TronChain): TronNode {
  const rpc = chain.rpc
  const txs = new Map<string, TronTxRecord>()
  /** the same records by block number, in the order they were recorded (what a block lists) */
  const txsByBlock = new Map<number, TronTxRecord[]>()
  const keep = (record: TronTxRecord) => {
    txs.set(record.txID, record)
    const inBlock = txsByBlock.get(record.blockNumber)
    if (inBlock) inBlock.push(record)
    else txsByBlock.set(record.blockNumber, [record])
  }
  const byEvmHash = new Map<string, string>()
  /** free bandwidth used: address -> {day, used} */
  const bandwidthUsed = new Map<string, { day: number; used: number }>()
  let queue: Promise<unknown> = Promise.resolve()
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task)
    queue = run.catch(() => {})
    return run
  }

  const latestBlock = () => rpc<RawBlock>('eth_getBlockByNumber', ['latest', false])
  const blockByNumber = (n: number | bigint) =>
    rpc<RawBlock | null>('eth_getBlockByNumber', [toHex(BigInt(n)), false])
  const blockId = (b: RawBlock) => BigInt(b.number).toString(16).padStart(16, '0') + strip0x(b.hash).slice(16)
  const balanceSun = async (evm: string) =>
    BigInt(await rpc<Hex>('eth_getBalance', [evm, 'latest'])) / WEI_PER_SUN
  const day = (ms: number) => Math.floor(ms / 86_400_000)
  const freeLeft = (evm: string, nowMs: number) => {
    const entry = bandwidthUsed.get(evm)
    const used = entry && entry.day === day(nowMs) ? entry.used : 0
    return Math.max(0, FREE_BANDWIDTH - used)
  }
  const out = (address: string, visible: boolean) => (visible ? toTronAddress(address) : tronHex(address))

  function blockJson(b: RawBlock): Json {
    const number = Number(BigInt(b.number))
    const transactions = (txsByBlock.get(number) ?? []).map((t) => t.transaction)
    return {
      blockID: blockId(b),
      block_header: {
        raw_data: {
          number,
          txTrieRoot: strip0x(b.transactionsRoot),
          witness_address: `41${strip0x(b.miner)}`,
          parentHash:
            number > 0
              ? (number - 1).toString(16).padStart(16, '0') + strip0x(b.parentHash).slice(16)
              : '0'.repeat(64),
          version: 30,
          timestamp: Number(BigInt(b.timestamp)) * 1000,
        },
        witness_signature: '',
      },
      ...(transactions.length ? { transactions } : {}),
    }
  }

  /** A transaction ready to sign, built on the latest block (TAPOS) with TronGrid's 60 s expiration. */
  async function buildTransaction(
    type: keyof typeof CONTRACT_TYPE,
    value: Buffer,
    valueJson: Json,
    feeLimit: bigint | null,
    permissionId: number | undefined,
    visible: boolean,
  ): Promise<Json> {
    const head = await latestBlock()
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

  async function hasCode(address: string): Promise<boolean> {
    return strip0x(await rpc<Hex>('eth_getCode', [address, 'latest'])).length > 0
  }

  async function ethCall(owner: string, contract: string, data: Hex, callValue: bigint) {
    // at most the energy a transaction may burn here: anvil would otherwise run the call for its block gas limit
    const tx = { from: owner, to: contract, data, value: toHex(callValue * WEI_PER_SUN), gas: toHex(MAX_GAS) }
    try {
      const [result, gas] = await Promise.all([
        rpc<Hex>('eth_call', [tx, 'latest']),
        rpc<Hex>('eth_estimateGas', [tx]),
      ])
      return { ok: true as const, result: strip0x(result), energy: BigInt(gas) - BASE_GAS }
    } catch (error) {
      const data = (error as { data?: unknown }).data
      return { ok: false as const, result: typeof data === 'string' ? strip0x(data) : '', energy: 0n }
    }
  }

  async function trigger(body: Json, mode: 'build' | 'constant' | 'estimate'): Promise<TronReply> {
    const t = readTrigger(body)
    if ('status' in t) return t
    if (!(await hasCode(t.contract)))
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
        'TriggerSmartContract',
        value,
        valueJson,
        feeLimit,
        permission,
        visible,
      )
      return { status: 200, body: { result: { result: true }, transaction } }
    }
    const call = await ethCall(t.owner, t.contract, t.data, t.callValue)
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

  async function createTransfer(body: Json): Promise<TronReply> {
    const owner = asAddress(body.owner_address)
    const to = asAddress(body.to_address)
    const amount = asInt(body.amount, -1n)
    if (!owner) return buildError('CONTRACT_VALIDATE_ERROR', 'Invalid ownerAddress')
    if (!to) return buildError('CONTRACT_VALIDATE_ERROR', 'Invalid toAddress')
    if (!amount || amount <= 0n)
      return buildError('CONTRACT_VALIDATE_ERROR', 'Amount must be greater than 0.')
    if (owner === to) return buildError('CONTRACT_VALIDATE_ERROR', 'Cannot transfer TRX to yourself.')
    if ((await balanceSun(owner)) < amount)
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
      body: await buildTransaction('TransferContract', value, valueJson, null, permission, visible),
    }
  }

  /** The raw_data JSON of a signed transaction encoded again, to hold it equal to raw_data_hex. */
  function encodeJson(raw: Json): Buffer | null {
    try {
      const contract = (raw.contract as Json[])[0]!
      const value = (contract.parameter as Json).value as Json
      const type = contract.type as string
      let valueBytes: Buffer
      if (type === 'TriggerSmartContract') {
        valueBytes = encodeTrigger({
          owner: addrBytes(value.owner_address as string),
          contract: addrBytes(value.contract_address as string),
          callValue: BigInt((value.call_value as number | undefined) ?? 0),
          data: Buffer.from(strip0x((value.data as string | undefined) ?? ''), 'hex'),
        })
      } else if (type === 'TransferContract') {
        valueBytes = encodeTransfer({
          owner: addrBytes(value.owner_address as string),
          to: addrBytes(value.to_address as string),
          amount: BigInt(value.amount as number),
        })
      } else return null
      return encodeRawData({
        refBlockBytes: Buffer.from(raw.ref_block_bytes as string, 'hex'),
        refBlockHash: Buffer.from(raw.ref_block_hash as string, 'hex'),
        expiration: Number(raw.expiration),
        ...(raw.data ? { data: Buffer.from(strip0x(raw.data as string), 'hex') } : {}),
        contract: {
          type,
          value: valueBytes,
          ...(contract.Permission_id ? { permissionId: Number(contract.Permission_id) } : {}),
        },
        timestamp: Number(raw.timestamp ?? 0),
        ...(raw.fee_limit ? { feeLimit: Number(raw.fee_limit) } : {}),
      })
    } catch {
      return null
    }
  }

  function refusal(code: string, txid: string, message: string): TronReply {
    return { status: 200, body: { code, txid, message: hexText(message) } }
  }

  async function broadcast(body: Json, sponsored = false): Promise<TronReply> {
    const rawHex = body.raw_data_hex
    if (typeof rawHex !== 'string' || !isHex(rawHex) || !rawHex.length)
      return refusal('OTHER_ERROR', '', 'raw_data_hex is required')
    const bytes = Buffer.from(strip0x(rawHex), 'hex')
    const txid = sha256(bytes)
    let decoded: ReturnType<typeof decodeRawData>
    try {
      decoded = decodeRawData(bytes)
    } catch (error) {
      return refusal('OTHER_ERROR', txid, `raw_data_hex is not a transaction: ${(error as Error).message}`)
    }
    if (typeof body.txID === 'string' && body.txID.toLowerCase() !== txid)
      return refusal('SIGERROR', txid, 'txID is not sha256(raw_data)')
    if (body.raw_data && typeof body.raw_data === 'object') {
      const again = encodeJson(body.raw_data as Json)
      if (!again?.equals(bytes))
        return refusal('OTHER_ERROR', txid, 'raw_data does not encode to raw_data_hex')
    }
    if (decoded.contractCount !== 1)
      return refusal('CONTRACT_VALIDATE_ERROR', txid, 'one contract per transaction')
    const signatures = Array.isArray(body.signature) ? body.signature : []
    if (
      signatures.length !== 1 ||
      typeof signatures[0] !== 'string' ||
      !/^(0x)?[0-9a-fA-F]{130}$/.test(signatures[0])
    )
      return refusal('SIGERROR', txid, 'Validate signature error: one 65-byte signature is required')
    const typeName =
      decoded.contract.type === CONTRACT_TYPE.TriggerSmartContract
        ? 'TriggerSmartContract'
        : decoded.contract.type === CONTRACT_TYPE.TransferContract
          ? 'TransferContract'
          : null
    if (!typeName)
      return refusal(
        'CONTRACT_VALIDATE_ERROR',
        txid,
        `contract type ${decoded.contract.type} is not supported by the sandbox`,
      )
    let trig: ReturnType<typeof decodeTrigger> | null
    let transfer: ReturnType<typeof decodeTransfer> | null
    try {
      trig = typeName === 'TriggerSmartContract' ? decodeTrigger(decoded.contract.value) : null
      transfer = typeName === 'TransferContract' ? decodeTransfer(decoded.contract.value) : null
    } catch (error) {
      return refusal('OTHER_ERROR', txid, `the contract is not a ${typeName}: ${(error as Error).message}`)
    }
    const isAddress = (b: Buffer) => b.length === 21 && b[0] === 0x41
    const ownerBytes = (trig ?? transfer)!.owner
    if (!isAddress(ownerBytes)) return refusal('CONTRACT_VALIDATE_ERROR', txid, 'Invalid ownerAddress')
    if (trig && !isAddress(trig.contract))
      return refusal('CONTRACT_VALIDATE_ERROR', txid, 'Invalid contractAddress')
    if (transfer && !isAddress(transfer.to))
      return refusal('CONTRACT_VALIDATE_ERROR', txid, 'Invalid toAddress')
    // int64 fields read back negative would turn fees and values into credits
    if ((decoded.feeLimit ?? 0) < 0 || (trig && trig.callValue < 0n))
      return refusal('CONTRACT_VALIDATE_ERROR', txid, 'fee_limit and call_value must not be negative')
    const owner = `0x${ownerBytes.subarray(1).toString('hex')}`
    let signer: string
    try {
      let sig = strip0x(signatures[0])
      const v = Number.parseInt(sig.slice(128), 16)
      if (v < 27) sig = sig.slice(0, 128) + (v + 27).toString(16)
      signer = (await recoverAddress({ hash: `0x${txid}`, signature: `0x${sig}` })).toLowerCase()
    } catch {
      return refusal('SIGERROR', txid, 'Validate signature error: the signature does not recover')
    }
    if (signer !== owner)
      return refusal(
        'SIGERROR',
        txid,
        `Validate signature error: ${strip0x(signatures[0]).toLowerCase()} is signed by ${toTronAddress(signer)} but it is not contained of permission.`,
      )
    return serial(async () => {
      if (txs.has(txid)) return refusal('DUP_TRANSACTION_ERROR', txid, 'Dup transaction.')
      const head = await latestBlock()
      const nowMs = Number(BigInt(head.timestamp)) * 1000
      if (decoded.expiration <= nowMs)
        return refusal('TRANSACTION_EXPIRATION_ERROR', txid, 'Transaction expired')
      // TAPOS: the reference block is one of the last 65,536 and its hash matches
      const latest = Number(BigInt(head.number))
      const ref = decoded.refBlockBytes.length === 2 ? decoded.refBlockBytes.readUInt16BE(0) : -1
      const refNumber = latest - ((latest - ref + 65536) % 65536)
      const refBlock = ref >= 0 && refNumber >= 0 ? await blockByNumber(refNumber) : null
      if (
        !refBlock ||
        Buffer.from(blockId(refBlock), 'hex').subarray(8, 16).compare(decoded.refBlockHash) !== 0
      )
        return refusal('TAPOS_ERROR', txid, 'Tapos check error')
      // bandwidth
      const size = bytes.length + 3 + 67 + 64
      const balance = await balanceSun(owner)
      const free = freeLeft(owner, nowMs)
      // a sponsored broadcast (the service's resource providers) burns none of the owner's TRX
      const netFee = sponsored || size <= free ? 0n : BigInt(size) * BANDWIDTH_PRICE_SUN
      if (netFee > balance) return refusal('BANDWITH_ERROR', txid, 'Account resource insufficient error.')
      if (netFee === 0n && !sponsored) {
        const entry = bandwidthUsed.get(owner)
        const used = entry && entry.day === day(nowMs) ? entry.used : 0
        bandwidthUsed.set(owner, { day: day(nowMs), used: used + size })
      }
      let spendable = balance - netFee
      const record: TronTxRecord = {
        txID: txid,
        transaction: {
          visible: body.visible === true,
          txID: txid,
          raw_data: body.raw_data,
          raw_data_hex: strip0x(rawHex).toLowerCase(),
          signature: signatures,
        },
        evmHash: null,
        blockNumber: 0,
        blockTimeStamp: 0,
        result: 'SUCCESS',
        contractResult: '',
        energyUsage: 0n,
        energyFee: 0n,
        netUsage: netFee === 0n ? size : 0,
        netFee,
        contractAddress: null,
        logs: [],
      }
      let tx: Json
      if (trig) {
        const to = `0x${trig.contract.subarray(1).toString('hex')}`
        if (trig.callValue > spendable)
          return refusal('CONTRACT_VALIDATE_ERROR', txid, 'balance is not sufficient')
        spendable -= trig.callValue
        const feeLimit = BigInt(decoded.feeLimit || 0)
        const energyLimit = (sponsored || feeLimit < spendable ? feeLimit : spendable) / ENERGY_PRICE_SUN
        tx = {
          from: owner,
          to,
          data: `0x${trig.data.toString('hex')}`,
          value: toHex(trig.callValue * WEI_PER_SUN),
          gas: toHex(BASE_GAS + (energyLimit > MAX_ENERGY ? MAX_ENERGY : energyLimit)),
        }
        record.contractAddress = `41${to.slice(2)}`
      } else {
        if (transfer!.amount <= 0n || transfer!.amount > spendable)
          return refusal(
            'CONTRACT_VALIDATE_ERROR',
            txid,
            'Validate TransferContract error, balance is not sufficient.',
          )
        spendable -= transfer!.amount
        tx = {
          from: owner,
          to: `0x${transfer!.to.subarray(1).toString('hex')}`,
          value: toHex(transfer!.amount * WEI_PER_SUN),
          gas: toHex(BASE_GAS),
        }
      }
      if (trig) {
        // an energy limit below what the call data alone costs: nothing runs, the limit is burnt (OUT_OF_ENERGY)
        const intrinsic = [...trig.data].reduce((sum, b) => sum + (b === 0 ? 4n : 16n), BASE_GAS)
        const energyLimit = BigInt(tx.gas as Hex) - BASE_GAS
        if (BASE_GAS + energyLimit <= intrinsic) {
          record.result = 'OUT_OF_ENERGY'
          record.resMessage = hexText('Not enough energy')
          record.energyUsage = energyLimit
          record.energyFee = sponsored ? 0n : energyLimit * ENERGY_PRICE_SUN
          record.blockNumber = latest
          record.blockTimeStamp = nowMs
          await rpc('anvil_setBalance', [owner, toHex((balance - netFee - record.energyFee) * WEI_PER_SUN)])
          keep(record)
          return { status: 200, body: { result: true, txid } }
        }
      }
      // the owner's gas in wei is not Tron's business: give it for the call, then set the balance Tron's way
      await rpc('anvil_setBalance', [owner, toHex((balance + 1_000_000n) * WEI_PER_SUN)])
      let receipt: RawReceipt | null = null
      try {
        await rpc('anvil_impersonateAccount', [owner])
        const hash = await rpc<Hex>('eth_sendTransaction', [
          { ...tx, gasPrice: await rpc<Hex>('eth_gasPrice') },
        ])
        record.evmHash = hash
        byEvmHash.set(hash.toLowerCase(), txid)
        // automine answers once the block is sealed; a node that is slower gets a few polls
        let found: RawReceipt | null = null
        for (let i = 0; i < 200 && !found; i++) {
          found = await rpc<RawReceipt | null>('eth_getTransactionReceipt', [hash])
          if (!found) await new Promise((resolve) => setTimeout(resolve, 25))
        }
        if (!found) {
          // never mined (anvil kept it pending): dropped, so it cannot hold the owner's nonce
          await rpc('anvil_dropTransaction', [hash]).catch(() => {})
          byEvmHash.delete(hash.toLowerCase())
        }
        receipt = found
      } catch (error) {
        // the chain refused the call (not mined): the owner keeps the balance it had, not the gas money given above
        await rpc('anvil_setBalance', [owner, toHex(balance * WEI_PER_SUN)]).catch(() => {})
        throw error
      } finally {
        await rpc('anvil_stopImpersonatingAccount', [owner]).catch(() => {})
      }
      if (!receipt) {
        await rpc('anvil_setBalance', [owner, toHex(balance * WEI_PER_SUN)])
        return refusal('OTHER_ERROR', txid, 'The sandbox chain did not mine the transaction')
      }
      const gasUsed = BigInt(receipt.gasUsed)
      const gasLimit = BigInt(tx.gas as Hex)
      if (trig) {
        record.energyUsage = gasUsed > BASE_GAS ? gasUsed - BASE_GAS : 0n
        if (receipt.status !== '0x1') {
          record.result = gasUsed >= gasLimit ? 'OUT_OF_ENERGY' : 'REVERT'
          record.resMessage = hexText(
            record.result === 'REVERT' ? 'REVERT opcode executed' : 'Not enough energy',
          )
        }
        record.energyFee = sponsored ? 0n : record.energyUsage * ENERGY_PRICE_SUN
      }
      const block = (await blockByNumber(BigInt(receipt.blockNumber)))!
      record.blockNumber = Number(BigInt(receipt.blockNumber))
      record.blockTimeStamp = Number(BigInt(block.timestamp)) * 1000
      record.logs = receipt.logs.map((l) => ({
        address: strip0x(l.address).toLowerCase(),
        topics: l.topics.map(strip0x),
        data: strip0x(l.data),
      }))
      const spent =
        netFee +
        record.energyFee +
        (trig ? (receipt.status === '0x1' ? trig.callValue : 0n) : transfer!.amount)
      await rpc('anvil_setBalance', [owner, toHex((balance - spent) * WEI_PER_SUN)])
      keep(record)
      return { status: 200, body: { result: true, txid } }
    })
  }

  function info(record: TronTxRecord): Json {
    return {
      id: record.txID,
      fee: Number(record.netFee + record.energyFee),
      blockNumber: record.blockNumber,
      blockTimeStamp: record.blockTimeStamp,
      contractResult: [record.contractResult],
      ...(record.contractAddress ? { contract_address: record.contractAddress } : {}),
      receipt: {
        ...(record.energyFee ? { energy_fee: Number(record.energyFee) } : {}),
        ...(record.energyUsage ? { energy_usage_total: Number(record.energyUsage) } : {}),
        ...(record.netUsage ? { net_usage: record.netUsage } : {}),
        ...(record.netFee ? { net_fee: Number(record.netFee) } : {}),
        ...(record.contractAddress ? { result: record.result } : {}),
      },
      ...(record.logs.length ? { log: record.logs } : {}),
      ...(record.result !== 'SUCCESS' ? { result: 'FAILED', resMessage: record.resMessage } : {}),
    }
  }

  async function account(body: Json): Promise<TronReply> {
    const evm = asAddress(body.address)
    if (!evm) return { status: 200, body: {} }
    const balance = await balanceSun(evm)
    // TronGrid answers {} for an account that does not exist on chain: here, one that holds no TRX
    if (balance === 0n) return { status: 200, body: {} }
    const visible = body.visible === true
    return {
      status: 200,
      body: {
        address: out(evm, visible),
        balance: Number(balance),
        create_time: 0,
        account_resource: {},
      },
    }
  }

  async function accountResource(body: Json, net: boolean): Promise<TronReply> {
    const evm = asAddress(body.address)
    if (!evm) return { status: 200, body: {} }
    const head = await latestBlock()
    const used = FREE_BANDWIDTH - freeLeft(evm, Number(BigInt(head.timestamp)) * 1000)
    const common = {
      freeNetLimit: FREE_BANDWIDTH,
      ...(used ? { freeNetUsed: used } : {}),
      TotalNetLimit: 43_200_000_000,
      TotalNetWeight: 26_000_000_000,
    }
    if (net) return { status: 200, body: common }
    return {
      status: 200,
      body: { ...common, TotalEnergyLimit: 180_000_000_000, TotalEnergyWeight: 19_000_000_000 },
    }
  }

  const contractAbis = new Map<string, Json[]>()
  function abiOf(evm: string): Json[] | null {
    if (contractAbis.size === 0) {
      const tokenAbi = [
        fn('name', [], [['', 'string']], 'View'),
        fn('symbol', [], [['', 'string']], 'View'),
        fn('decimals', [], [['', 'uint8']], 'View'),
        fn('totalSupply', [], [['', 'uint256']], 'View'),
        fn('balanceOf', [['owner', 'address']], [['', 'uint256']], 'View'),
        fn(
          'allowance',
          [
            ['owner', 'address'],
            ['spender', 'address'],
          ],
          [['', 'uint256']],
          'View',
        ),
        fn(
          'approve',
          [
            ['spender', 'address'],
            ['value', 'uint256'],
          ],
          [['', 'bool']],
          'Nonpayable',
        ),
        fn(
          'transfer',
          [
            ['to', 'address'],
            ['value', 'uint256'],
          ],
          [['', 'bool']],
          'Nonpayable',
        ),
        fn(
          'transferFrom',
          [
            ['from', 'address'],
            ['to', 'address'],
            ['value', 'uint256'],
          ],
          [['', 'bool']],
          'Nonpayable',
        ),
        {
          type: 'Event',
          name: 'Transfer',
          inputs: [ev('from', 'address', true), ev('to', 'address', true), ev('value', 'uint256', false)],
        },
        {
          type: 'Event',
          name: 'Approval',
          inputs: [
            ev('owner', 'address', true),
            ev('spender', 'address', true),
            ev('value', 'uint256', false),
          ],
        },
      ]
      for (const address of Object.values(chain.tokens)) contractAbis.set(address.toLowerCase(), tokenAbi)
      const proxy = chain.contracts.ERC20FeeProxy
      if (proxy)
        contractAbis.set(proxy.toLowerCase(), [
          fn(
            'transferFromWithReferenceAndFee',
            [
              ['_tokenAddress', 'address'],
              ['_to', 'address'],
              ['_amount', 'uint256'],
              ['_paymentReference', 'bytes'],
              ['_feeAmount', 'uint256'],
              ['_feeAddress', 'address'],
            ],
            [],
            'Nonpayable',
          ),
          {
            type: 'Event',
            name: 'TransferWithReferenceAndFee',
            inputs: [
              ev('tokenAddress', 'address', false),
              ev('to', 'address', false),
              ev('amount', 'uint256', false),
              ev('paymentReference', 'bytes', true),
              ev('feeAmount', 'uint256', false),
              ev('feeAddress', 'address', false),
            ],
          },
        ])
    }
    return contractAbis.get(evm.toLowerCase()) ?? null
  }

  async function getContract(body: Json): Promise<TronReply> {
    const evm = asAddress(body.value)
    if (!evm || !(await hasCode(evm))) return { status: 200, body: {} }
    const visible = body.visible === true
    const entrys = abiOf(evm)
    return {
      status: 200,
      body: {
        origin_address: out(chain.roles.deployer.address, visible),
        contract_address: out(evm, visible),
        abi: entrys ? { entrys } : {},
        bytecode: strip0x(await rpc<Hex>('eth_getCode', [evm, 'latest'])),
        name: entrys ? 'Contract' : '',
      },
    }
  }

  async function txById(body: Json, info_: boolean): Promise<TronReply> {
    const id = typeof body.value === 'string' ? strip0x(body.value).toLowerCase() : ''
    const record = txs.get(id)
    if (!record) return { status: 200, body: {} }
    if (info_) return { status: 200, body: info(record) }
    return { status: 200, body: { ...record.transaction, ret: [{ contractRet: record.result }] } }
  }

  async function block(body: Json): Promise<TronReply> {
    const key = body.id_or_num ?? body.num ?? body.value
    let b: RawBlock | null
    if (key === undefined || key === null || key === '') b = await latestBlock()
    else if (
      (typeof key === 'number' && Number.isSafeInteger(key) && key >= 0) ||
      (typeof key === 'string' && /^\d{1,15}$/.test(key))
    )
      b = await blockByNumber(BigInt(key))
    else if (typeof key === 'string' && /^[0-9a-fA-F]{64}$/.test(key)) {
      b = await blockByNumber(BigInt(`0x${key.slice(0, 16)}`))
      if (b && blockId(b) !== key.toLowerCase()) b = null
    } else b = null
    return { status: 200, body: b ? blockJson(b) : {} }
  }

  const methods = methodTable({
    getaccount: account,
    getaccountresource: (b) => accountResource(b, false),
    getaccountnet: (b) => accountResource(b, true),
    triggersmartcontract: (b) => trigger(b, 'build'),
    triggerconstantcontract: (b) => trigger(b, 'constant'),
    estimateenergy: (b) => trigger(b, 'estimate'),
    createtransaction: createTransfer,
    broadcasttransaction: (b) => broadcast(b),
    gettransactionbyid: (b) => txById(b, false),
    gettransactioninfobyid: (b) => txById(b, true),
    getcontract: getContract,
    getnowblock: () => block({}),
    getblock: block,
    getblockbynum: block,
    getblockbyid: block,
    getnodeinfo: async () => {
      const head = await latestBlock()
      return {
        status: 200,
        body: {
          block: `Num:${Number(BigInt(head.number))},ID:${blockId(head)}`,
          configNodeInfo: { codeVersion: '4.7.7', p2pVersion: String(chain.chainId), versionNum: '19360' },
          machineInfo: {},
          activeConnectCount: 0,
          currentConnectCount: 0,
        },
      }
    },
    getchainparameters: async () => ({
      status: 200,
      body: {
        chainParameter: [
          { key: 'getTransactionFee', value: Number(BANDWIDTH_PRICE_SUN) },
          { key: 'getEnergyFee', value: Number(ENERGY_PRICE_SUN) },
          { key: 'getFreeNetLimit', value: FREE_BANDWIDTH },
          { key: 'getMaxFeeLimit', value: 15_000_000_000 },
        ],
      },
    }),
    getenergyprices: async () => ({ status: 200, body: { prices: `0:${ENERGY_PRICE_SUN}` } }),
    getbandwidthprices: async () => ({ status: 200, body: { prices: `0:${BANDWIDTH_PRICE_SUN}` } }),
  })

  return {
    call: (path, body) => callMethod(methods, path, body),
    broadcast: (body, options) => broadcast(body, options?.sponsored === true),
    async txIdOf(evmHash) {
      await queue
      return byEvmHash.get(evmHash.toLowerCase()) ?? null
    },
    async feeOf(evmHash) {
      await queue
      const id = byEvmHash.get(evmHash.toLowerCase())
      const record = id ? txs.get(id) : undefined
      return record ? record.netFee + record.energyFee : null
    },
    async resources(address) {
      const evm = toEvmAddress(address)
      const head = await latestBlock()
      return {
        balanceSun: await balanceSun(evm),
        freeBandwidth: freeLeft(evm, Number(BigInt(head.timestamp)) * 1000),
        energy: 0n,
      }
    },
    async estimateEnergy(owner, contract, data) {
      const call = await ethCall(toEvmAddress(owner), toEvmAddress(contract), data, 0n)
      return call.ok ? call.energy : 0n
    },
    bandwidthOf(owner, contract, data) {
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
    },
  }
}

function fn(
  name: string,
  inputs: [string, string][],
  outputs: [string, string][],
  stateMutability: string,
): Json {
  return {
    type: 'Function',
    name,
    ...(inputs.length ? { inputs: inputs.map(([n, type]) => ({ name: n, type })) } : {}),
    ...(outputs.length ? { outputs: outputs.map(([n, type]) => ({ name: n, type })) } : {}),
    stateMutability,
    ...(stateMutability === 'View' ? { constant: true } : {}),
  }
}

function ev(name: string, type: string, indexed: boolean): Json {
  return { name, type, ...(indexed ? { indexed: true } : {}) }
}
