// The Tron node's broadcast (`broadcasttransaction`): checks what a Tron node checks that matters to a client (the
// transaction id is sha256 of raw_data, a secp256k1 signature of its owner over that id, no duplicate, not expired, a
// recent reference block, enough bandwidth), then executes the contract on anvil as its owner (impersonated: the
// signature is the authority), one broadcast at a time, and keeps its receipt. Resource accounting, kept simple but
// consistent between estimate, readiness and receipt:
//   bandwidth = the signed transaction's bytes (+64 for its result); each account gets 600 free a day (UTC day of the
//     chain's clock), beyond that 1,000 sun a byte are burnt;
//   energy = gas used - 21,000, burnt at 100 sun each (nobody has staked energy); the limit is min(fee_limit,
//     balance) / 100, exceeded = OUT_OF_ENERGY, the whole limit burnt.
import { type Hex, recoverAddress, toHex } from 'viem'
import { toTronAddress } from '../address.ts'
import {
  addrBytes,
  BANDWIDTH_PRICE_SUN,
  BASE_GAS,
  blockId,
  day,
  ENERGY_PRICE_SUN,
  hexText,
  isHex,
  type Json,
  MAX_ENERGY,
  type RawReceipt,
  sha256,
  strip0x,
  type TronContext,
  type TronTxRecord,
  WEI_PER_SUN,
} from './context.ts'
import {
  CONTRACT_TYPE,
  decodeRawData,
  decodeTransfer,
  decodeTrigger,
  encodeRawData,
  encodeTransfer,
  encodeTrigger,
} from './protobuf.ts'
import type { TronReply } from './types.ts'

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

export async function broadcast(ctx: TronContext, body: Json, sponsored = false): Promise<TronReply> {
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
    if (!again?.equals(bytes)) return refusal('OTHER_ERROR', txid, 'raw_data does not encode to raw_data_hex')
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
  return ctx.serial(async () => {
    if (ctx.txs.has(txid)) return refusal('DUP_TRANSACTION_ERROR', txid, 'Dup transaction.')
    const head = await ctx.latestBlock()
    const nowMs = Number(BigInt(head.timestamp)) * 1000
    if (decoded.expiration <= nowMs)
      return refusal('TRANSACTION_EXPIRATION_ERROR', txid, 'Transaction expired')
    // TAPOS: the reference block is one of the last 65,536 and its hash matches
    const latest = Number(BigInt(head.number))
    const ref = decoded.refBlockBytes.length === 2 ? decoded.refBlockBytes.readUInt16BE(0) : -1
    const refNumber = latest - ((latest - ref + 65536) % 65536)
    const refBlock = ref >= 0 && refNumber >= 0 ? await ctx.blockByNumber(refNumber) : null
    if (
      !refBlock ||
      Buffer.from(blockId(refBlock), 'hex').subarray(8, 16).compare(decoded.refBlockHash) !== 0
    )
      return refusal('TAPOS_ERROR', txid, 'Tapos check error')
    // bandwidth
    const size = bytes.length + 3 + 67 + 64
    const balance = await ctx.balanceSun(owner)
    const free = ctx.freeLeft(owner, nowMs)
    // a sponsored broadcast (the service's resource providers) burns none of the owner's TRX
    const netFee = sponsored || size <= free ? 0n : BigInt(size) * BANDWIDTH_PRICE_SUN
    if (netFee > balance) return refusal('BANDWITH_ERROR', txid, 'Account resource insufficient error.')
    if (netFee === 0n && !sponsored) {
      const entry = ctx.bandwidthUsed.get(owner)
      const used = entry && entry.day === day(nowMs) ? entry.used : 0
      ctx.bandwidthUsed.set(owner, { day: day(nowMs), used: used + size })
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
        await ctx.rpc('anvil_setBalance', [owner, toHex((balance - netFee - record.energyFee) * WEI_PER_SUN)])
        ctx.keep(record)
        return { status: 200, body: { result: true, txid } }
      }
    }
    // the owner's gas in wei is not Tron's business: give it for the call, then set the balance Tron's way
    await ctx.rpc('anvil_setBalance', [owner, toHex((balance + 1_000_000n) * WEI_PER_SUN)])
    let receipt: RawReceipt | null = null
    try {
      await ctx.rpc('anvil_impersonateAccount', [owner])
      const hash = await ctx.rpc<Hex>('eth_sendTransaction', [
        { ...tx, gasPrice: await ctx.rpc<Hex>('eth_gasPrice') },
      ])
      record.evmHash = hash
      ctx.byEvmHash.set(hash.toLowerCase(), txid)
      // automine answers once the block is sealed; a node that is slower gets a few polls
      let found: RawReceipt | null = null
      for (let i = 0; i < 200 && !found; i++) {
        found = await ctx.rpc<RawReceipt | null>('eth_getTransactionReceipt', [hash])
        if (!found) await new Promise((resolve) => setTimeout(resolve, 25))
      }
      if (!found) {
        // never mined (anvil kept it pending): dropped, so it cannot hold the owner's nonce
        await ctx.rpc('anvil_dropTransaction', [hash]).catch(() => {})
        ctx.byEvmHash.delete(hash.toLowerCase())
      }
      receipt = found
    } catch (error) {
      // the chain refused the call (not mined): the owner keeps the balance it had, not the gas money given above
      await ctx.rpc('anvil_setBalance', [owner, toHex(balance * WEI_PER_SUN)]).catch(() => {})
      throw error
    } finally {
      await ctx.rpc('anvil_stopImpersonatingAccount', [owner]).catch(() => {})
    }
    if (!receipt) {
      await ctx.rpc('anvil_setBalance', [owner, toHex(balance * WEI_PER_SUN)])
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
    const block = (await ctx.blockByNumber(BigInt(receipt.blockNumber)))!
    record.blockNumber = Number(BigInt(receipt.blockNumber))
    record.blockTimeStamp = Number(BigInt(block.timestamp)) * 1000
    record.logs = receipt.logs.map((l) => ({
      address: strip0x(l.address).toLowerCase(),
      topics: l.topics.map(strip0x),
      data: strip0x(l.data),
    }))
    const spent =
      netFee + record.energyFee + (trig ? (receipt.status === '0x1' ? trig.callValue : 0n) : transfer!.amount)
    await ctx.rpc('anvil_setBalance', [owner, toHex((balance - spent) * WEI_PER_SUN)])
    ctx.keep(record)
    return { status: 200, body: { result: true, txid } }
  })
}
