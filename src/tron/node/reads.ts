// The Tron node's reads: blocks (`getnowblock`, `getblock*`, listing the transactions the node executed in them),
// transactions and their receipts (`gettransactionbyid`, `gettransactioninfobyid`), accounts and their resources
// (`getaccount`, `getaccountresource`, `getaccountnet`) and contracts (`getcontract`, with the ABI of the chain's
// tokens and ERC20FeeProxy).
import type { Hex } from 'viem'
import {
  asAddress,
  blockId,
  FREE_BANDWIDTH,
  type Json,
  out,
  type RawBlock,
  strip0x,
  type TronContext,
  type TronTxRecord,
} from './context.ts'
import type { TronReply } from './types.ts'

function blockJson(ctx: TronContext, b: RawBlock): Json {
  const number = Number(BigInt(b.number))
  const transactions = (ctx.txsByBlock.get(number) ?? []).map((t) => t.transaction)
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

export async function account(ctx: TronContext, body: Json): Promise<TronReply> {
  const evm = asAddress(body.address)
  if (!evm) return { status: 200, body: {} }
  const balance = await ctx.balanceSun(evm)
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

export async function accountResource(ctx: TronContext, body: Json, net: boolean): Promise<TronReply> {
  const evm = asAddress(body.address)
  if (!evm) return { status: 200, body: {} }
  const head = await ctx.latestBlock()
  const used = FREE_BANDWIDTH - ctx.freeLeft(evm, Number(BigInt(head.timestamp)) * 1000)
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

function abiOf(ctx: TronContext, evm: string): Json[] | null {
  if (ctx.contractAbis.size === 0) {
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
        inputs: [ev('owner', 'address', true), ev('spender', 'address', true), ev('value', 'uint256', false)],
      },
    ]
    for (const address of Object.values(ctx.chain.tokens))
      ctx.contractAbis.set(address.toLowerCase(), tokenAbi)
    const proxy = ctx.chain.contracts.ERC20FeeProxy
    if (proxy)
      ctx.contractAbis.set(proxy.toLowerCase(), [
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
  return ctx.contractAbis.get(evm.toLowerCase()) ?? null
}

export async function getContract(ctx: TronContext, body: Json): Promise<TronReply> {
  const evm = asAddress(body.value)
  if (!evm || !(await ctx.hasCode(evm))) return { status: 200, body: {} }
  const visible = body.visible === true
  const entrys = abiOf(ctx, evm)
  return {
    status: 200,
    body: {
      origin_address: out(ctx.chain.roles.deployer.address, visible),
      contract_address: out(evm, visible),
      abi: entrys ? { entrys } : {},
      bytecode: strip0x(await ctx.rpc<Hex>('eth_getCode', [evm, 'latest'])),
      name: entrys ? 'Contract' : '',
    },
  }
}

export async function txById(ctx: TronContext, body: Json, info_: boolean): Promise<TronReply> {
  const id = typeof body.value === 'string' ? strip0x(body.value).toLowerCase() : ''
  const record = ctx.txs.get(id)
  if (!record) return { status: 200, body: {} }
  if (info_) return { status: 200, body: info(record) }
  return { status: 200, body: { ...record.transaction, ret: [{ contractRet: record.result }] } }
}

export async function block(ctx: TronContext, body: Json): Promise<TronReply> {
  const key = body.id_or_num ?? body.num ?? body.value
  let b: RawBlock | null
  if (key === undefined || key === null || key === '') b = await ctx.latestBlock()
  else if (
    (typeof key === 'number' && Number.isSafeInteger(key) && key >= 0) ||
    (typeof key === 'string' && /^\d{1,15}$/.test(key))
  )
    b = await ctx.blockByNumber(BigInt(key))
  else if (typeof key === 'string' && /^[0-9a-fA-F]{64}$/.test(key)) {
    b = await ctx.blockByNumber(BigInt(`0x${key.slice(0, 16)}`))
    if (b && blockId(b) !== key.toLowerCase()) b = null
  } else b = null
  return { status: 200, body: b ? blockJson(ctx, b) : {} }
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
