// One-off generator for fixtures/currencies.json (kept so the hashes can be re-derived).
// Data: Request Network's published token list and DOCS addresses; hashes by the documented formula.
import { writeFileSync } from 'node:fs'
import { getAddress, keccak256, toHex } from 'viem'

const chainIds = {
  sepolia: 11155111,
  mainnet: 1,
  base: 8453,
  'arbitrum-one': 42161,
  optimism: 10,
  matic: 137,
  bsc: 56,
}
const hashOf = (type, value) =>
  `0x${keccak256(toHex(JSON.stringify({ type, value }).toLowerCase())).slice(-40)}`
const erc20 = (id, name, symbol, decimals, address, network, extra = {}) => ({
  id,
  name,
  symbol,
  decimals,
  address: getAddress(address),
  network,
  type: 'ERC20',
  hash: getAddress(address),
  chainId: chainIds[network],
  ...extra,
})
const native = (id, name, symbol, network) => {
  const h = hashOf('ETH', symbol)
  return {
    id,
    name,
    symbol,
    decimals: 18,
    address: h,
    network,
    type: 'ETH',
    hash: h,
    chainId: chainIds[network],
  }
}
// Fiat has no chain: like native currencies, its address is its currency hash; network 'fiat', chainId 0.
const fiat = (id, name, decimals) => {
  const h = hashOf('ISO4217', id)
  return { id, name, symbol: id, decimals, address: h, network: 'fiat', type: 'ISO4217', hash: h, chainId: 0 }
}

// `permit` is the token's EIP-2612 domain version (null: no permit), used when the sandbox deploys it.
const currencies = [
  native('ETH-sepolia-sepolia', 'Sepolia Ether', 'ETH-sepolia', 'sepolia'),
  erc20('FAU-sepolia', 'FaucetToken', 'FAU', 18, '0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C', 'sepolia', {
    permit: null,
  }),
  erc20('USDC-sepolia', 'USDC', 'USDC', 6, '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', 'sepolia', {
    permit: '2',
  }),
  erc20('fUSDC-sepolia', 'FakeUSDC', 'fUSDC', 6, '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', 'sepolia', {
    permit: '2',
  }),
  erc20('fUSDT-sepolia', 'FakeUSDT', 'fUSDT', 6, '0xF046b3CA5ae2879c6bAcC4D42fAF363eE8379F78', 'sepolia', {
    permit: null,
  }),
  native('ETH-mainnet', 'Ether', 'ETH', 'mainnet'),
  erc20('USDC-mainnet', 'USD Coin', 'USDC', 6, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'mainnet', {
    permit: '2',
  }),
  erc20('USDT-mainnet', 'Tether USD', 'USDT', 6, '0xdAC17F958D2ee523a2206206994597C13D831ec7', 'mainnet', {
    permit: null,
  }),
  erc20('DAI-mainnet', 'Dai Stablecoin', 'DAI', 18, '0x6B175474E89094C44Da98b954EedeAC495271d0F', 'mainnet', {
    permit: null,
  }),
  native('ETH-base-base', 'Base Ether', 'ETH-base', 'base'),
  erc20('USDC-base', 'USD Coin', 'USDC', 6, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 'base', {
    permit: '2',
  }),
  erc20('USDT-base', 'Tether USD', 'USDT', 6, '0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2', 'base', {
    permit: null,
  }),
  native('AETH-arbitrum-one', 'Arbitrum Ether', 'AETH', 'arbitrum-one'),
  erc20(
    'USDC-arbitrum-one',
    'USD Coin',
    'USDC',
    6,
    '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    'arbitrum-one',
    { permit: '2' },
  ),
  erc20(
    'USDT0-arbitrum-one',
    'USD₮0',
    'USDT0',
    6,
    '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9',
    'arbitrum-one',
    { permit: null },
  ),
  native('ETH-optimism-optimism', 'Optimism Ether', 'ETH-optimism', 'optimism'),
  erc20('USDC-optimism', 'USD Coin', 'USDC', 6, '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', 'optimism', {
    permit: '2',
  }),
  erc20('USDT-optimism', 'Tether USD', 'USDT', 6, '0x94b008aA00579c1307B0EF2c499aD98a8ce58e58', 'optimism', {
    permit: null,
  }),
  erc20('USDT0-optimism', 'USD₮0', 'USDT0', 6, '0x01bFF41798a0BcF287b996046Ca68b395DbC1071', 'optimism', {
    permit: null,
  }),
  native('MATIC-matic', 'Matic', 'MATIC', 'matic'),
  erc20('USDC-matic', 'USD Coin', 'USDC', 6, '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', 'matic', {
    permit: '2',
  }),
  erc20('USDT-matic', '(PoS) Tether USD', 'USDT', 6, '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', 'matic', {
    permit: null,
  }),
  // USDT0 (2026-Q2 release notes): on Polygon Tether's PoS USDT contract became USDT0, so both ids share it.
  erc20('USDT0-matic', 'USD₮0', 'USDT0', 6, '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', 'matic', {
    permit: null,
  }),
  // BNB Smart Chain (resources/supported-chains-and-currencies.mdx, use-cases/quickstart.mdx): both 18 decimals.
  native('BNB-bsc', 'BNB', 'BNB', 'bsc'),
  erc20('USDC-bsc', 'USD Coin', 'USDC', 18, '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 'bsc', {
    permit: null,
  }),
  erc20('USDT-bsc', 'Tether USD', 'USDT', 18, '0x55d398326f99059fF775485246999027B3197955', 'bsc', {
    permit: null,
  }),
  fiat('USD', 'US Dollar', 2),
  fiat('EUR', 'Euro', 2),
  fiat('GBP', 'Pound Sterling', 2),
  fiat('CNY', 'Yuan Renminbi', 2),
  fiat('JPY', 'Yen', 0),
]
writeFileSync(
  new URL('../fixtures/currencies.json', import.meta.url),
  `${JSON.stringify(currencies, null, 2)}\n`,
)
console.log(`wrote ${currencies.length} currencies`)
