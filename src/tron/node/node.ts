// The sandbox's Tron full node: the subset of TronGrid's HTTP API (wallet/* and walletsolidity/*) that TronWeb uses
// to read accounts and resources, build TRC-20 calls, estimate energy, broadcast and read transactions, served over
// the anvil of the `tron` network. Addresses are the EVM addresses behind `T…` ones; TRX is the chain's native
// balance (1 sun = 10^12 wei, so 1 TRX = 1 ether of the anvil); energy is EVM gas above the 21,000 base.
//
// This file wires the node's jobs to its method table and to what the rest of the sandbox reads of it: building
// transactions (transactions.ts), broadcasting them and their receipts and bandwidth (broadcast.ts), reading blocks,
// transactions, accounts and contracts (reads.ts), over the state they share (context.ts).
import { toEvmAddress } from '../address.ts'
import { broadcast } from './broadcast.ts'
import {
  BANDWIDTH_PRICE_SUN,
  blockId,
  createTronContext,
  ENERGY_PRICE_SUN,
  FREE_BANDWIDTH,
} from './context.ts'
import { callMethod, methodTable } from './methods.ts'
import { account, accountResource, block, getContract, txById } from './reads.ts'
import { bandwidthOf, createTransfer, ethCall, trigger } from './transactions.ts'
import type { TronChain, TronNode } from './types.ts'

export { BANDWIDTH_PRICE_SUN, ENERGY_PRICE_SUN, FREE_BANDWIDTH, WEI_PER_SUN } from './context.ts'

/** Builds the node of a live chain (its network must be `tron`). */
export function createTronNode(chain: TronChain): TronNode {
  const ctx = createTronContext(chain)

  const methods = methodTable({
    getaccount: (b) => account(ctx, b),
    getaccountresource: (b) => accountResource(ctx, b, false),
    getaccountnet: (b) => accountResource(ctx, b, true),
    triggersmartcontract: (b) => trigger(ctx, b, 'build'),
    triggerconstantcontract: (b) => trigger(ctx, b, 'constant'),
    estimateenergy: (b) => trigger(ctx, b, 'estimate'),
    createtransaction: (b) => createTransfer(ctx, b),
    broadcasttransaction: (b) => broadcast(ctx, b),
    gettransactionbyid: (b) => txById(ctx, b, false),
    gettransactioninfobyid: (b) => txById(ctx, b, true),
    getcontract: (b) => getContract(ctx, b),
    getnowblock: () => block(ctx, {}),
    getblock: (b) => block(ctx, b),
    getblockbynum: (b) => block(ctx, b),
    getblockbyid: (b) => block(ctx, b),
    getnodeinfo: async () => {
      const head = await ctx.latestBlock()
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
    broadcast: (body, options) => broadcast(ctx, body, options?.sponsored === true),
    async txIdOf(evmHash) {
      await ctx.idle()
      return ctx.byEvmHash.get(evmHash.toLowerCase()) ?? null
    },
    async feeOf(evmHash) {
      await ctx.idle()
      const id = ctx.byEvmHash.get(evmHash.toLowerCase())
      const record = id ? ctx.txs.get(id) : undefined
      return record ? record.netFee + record.energyFee : null
    },
    async resources(address) {
      const evm = toEvmAddress(address)
      const head = await ctx.latestBlock()
      return {
        balanceSun: await ctx.balanceSun(evm),
        freeBandwidth: ctx.freeLeft(evm, Number(BigInt(head.timestamp)) * 1000),
        energy: 0n,
      }
    },
    async estimateEnergy(owner, contract, data) {
      const call = await ethCall(ctx, toEvmAddress(owner), toEvmAddress(contract), data, 0n)
      return call.ok ? call.energy : 0n
    },
    bandwidthOf,
  }
}
