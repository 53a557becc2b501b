// The few protobuf messages of Tron's protocol (core/Tron.proto, core/contract/*.proto) that the sandbox's node
// builds and reads: Transaction.raw with one contract, TriggerSmartContract and TransferContract. Encoded as
// protobuf's reference encoder writes them (fields in number order, default values left out), so a client that
// re-encodes the JSON it got (TronWeb's txCheck) finds the same bytes, and the same sha256: the transaction id.

/** Contract types of Transaction.Contract.ContractType used here. */
export const CONTRACT_TYPE = { TransferContract: 1, TriggerSmartContract: 31 } as const
export type TronContractName = keyof typeof CONTRACT_TYPE

/** Transaction.raw, with its one contract. */
export interface TronRawData {
  refBlockBytes: Buffer
  refBlockHash: Buffer
  /** ms since epoch */
  expiration: number
  /** memo bytes, if any */
  data?: Buffer
  contract: { type: TronContractName; value: Buffer; permissionId?: number }
  /** ms since epoch */
  timestamp: number
  /** sun; 0 = none */
  feeLimit?: number
}

/** TriggerSmartContract (addresses as 21 bytes: 0x41 + 20). */
export interface TriggerSmartContract {
  owner: Buffer
  contract: Buffer
  callValue: bigint
  data: Buffer
}

/** TransferContract: TRX from owner to `to`, `amount` in sun. */
export interface TransferContract {
  owner: Buffer
  to: Buffer
  amount: bigint
}

function varint(value: bigint | number): Buffer {
  let v = BigInt(value)
  if (v < 0n) v += 1n << 64n // int64 negatives are ten bytes in protobuf
  const out: number[] = []
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80)
    v >>= 7n
  }
  out.push(Number(v))
  return Buffer.from(out)
}

const tag = (field: number, wire: 0 | 2) => varint((field << 3) | wire)

function bytesField(field: number, value: Buffer | undefined): Buffer[] {
  return value?.length ? [tag(field, 2), varint(value.length), value] : []
}

function intField(field: number, value: bigint | number | undefined): Buffer[] {
  return value !== undefined && BigInt(value) !== 0n ? [tag(field, 0), varint(value)] : []
}

/** TriggerSmartContract's bytes. */
export function encodeTrigger(t: TriggerSmartContract): Buffer {
  return Buffer.concat([
    ...bytesField(1, t.owner),
    ...bytesField(2, t.contract),
    ...intField(3, t.callValue),
    ...bytesField(4, t.data),
  ])
}

/** TransferContract's bytes. */
export function encodeTransfer(t: TransferContract): Buffer {
  return Buffer.concat([...bytesField(1, t.owner), ...bytesField(2, t.to), ...intField(3, t.amount)])
}

/** Transaction.raw's bytes: their sha256 is the transaction id. */
export function encodeRawData(raw: TronRawData): Buffer {
  const typeUrl = Buffer.from(`type.googleapis.com/protocol.${raw.contract.type}`)
  const any = Buffer.concat([...bytesField(1, typeUrl), ...bytesField(2, raw.contract.value)])
  const contract = Buffer.concat([
    ...intField(1, CONTRACT_TYPE[raw.contract.type]),
    ...bytesField(2, any),
    ...intField(5, raw.contract.permissionId),
  ])
  return Buffer.concat([
    ...bytesField(1, raw.refBlockBytes),
    ...bytesField(4, raw.refBlockHash),
    ...intField(8, raw.expiration),
    ...bytesField(10, raw.data),
    ...bytesField(11, contract),
    ...intField(14, raw.timestamp),
    ...intField(18, raw.feeLimit),
  ])
}

type Fields = Map<number, (bigint | Buffer)[]>

/** Splits a message into its fields; throws on a malformed buffer or a wire type these messages do not use. */
function readFields(buf: Buffer): Fields {
  const fields: Fields = new Map()
  let i = 0
  const readVarint = (): bigint => {
    let result = 0n
    let shift = 0n
    for (;;) {
      if (i >= buf.length || shift > 63n) throw new Error('truncated varint')
      const b = buf[i++]!
      result |= BigInt(b & 0x7f) << shift
      if (!(b & 0x80)) return result
      shift += 7n
    }
  }
  while (i < buf.length) {
    const key = readVarint()
    const field = Number(key >> 3n)
    const wire = Number(key & 7n)
    let value: bigint | Buffer
    if (wire === 0) value = readVarint()
    else if (wire === 2) {
      const length = Number(readVarint())
      if (i + length > buf.length) throw new Error('truncated field')
      value = buf.subarray(i, i + length)
      i += length
    } else throw new Error(`unsupported wire type ${wire}`)
    fields.set(field, [...(fields.get(field) ?? []), value])
  }
  return fields
}

const bytesOf = (f: Fields, n: number): Buffer => {
  const v = f.get(n)?.[0]
  return Buffer.isBuffer(v) ? v : Buffer.alloc(0)
}
const intOf = (f: Fields, n: number): bigint => {
  const v = f.get(n)?.[0]
  return typeof v === 'bigint' ? v : 0n
}
const signed = (v: bigint): bigint => (v >= 1n << 63n ? v - (1n << 64n) : v)

/** A decoded Transaction.raw: its contract's type and parameter bytes. */
export interface DecodedRawData extends Omit<TronRawData, 'contract'> {
  contract: { type: number; typeUrl: string; value: Buffer; permissionId: number }
  contractCount: number
}

/** Reads Transaction.raw's bytes (throws when they are not one). */
export function decodeRawData(bytes: Buffer): DecodedRawData {
  const f = readFields(bytes)
  const contracts = (f.get(11) ?? []).filter(Buffer.isBuffer)
  if (contracts.length === 0) throw new Error('no contract in raw_data')
  const c = readFields(contracts[0]!)
  const any = readFields(bytesOf(c, 2))
  const data = bytesOf(f, 10)
  return {
    refBlockBytes: bytesOf(f, 1),
    refBlockHash: bytesOf(f, 4),
    expiration: Number(signed(intOf(f, 8))),
    ...(data.length ? { data } : {}),
    contract: {
      type: Number(intOf(c, 1)),
      typeUrl: bytesOf(any, 1).toString('utf8'),
      value: bytesOf(any, 2),
      permissionId: Number(intOf(c, 5)),
    },
    contractCount: contracts.length,
    timestamp: Number(signed(intOf(f, 14))),
    feeLimit: Number(signed(intOf(f, 18))),
  }
}

/** Reads a TriggerSmartContract. */
export function decodeTrigger(bytes: Buffer): TriggerSmartContract {
  const f = readFields(bytes)
  return {
    owner: bytesOf(f, 1),
    contract: bytesOf(f, 2),
    callValue: signed(intOf(f, 3)),
    data: bytesOf(f, 4),
  }
}

/** Reads a TransferContract. */
export function decodeTransfer(bytes: Buffer): TransferContract {
  const f = readFields(bytes)
  return { owner: bytesOf(f, 1), to: bytesOf(f, 2), amount: signed(intOf(f, 3)) }
}
