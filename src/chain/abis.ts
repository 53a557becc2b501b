// Every ABI the sandbox encodes, reads or decodes, in one place: Request Network's payment proxies and the
// ERC-20 functions written out (their signatures are part of the published interface), our own contracts'
// taken from their compiled artifacts.
import { parseAbi } from 'viem'
import { artifacts } from './artifacts.ts'

/** The ERC-20 functions the sandbox encodes or reads. */
export const erc20Abi = parseAbi([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
])

/** EIP-2612 (permit and its nonces), as the payer's token exposes it. */
export const erc2612Abi = parseAbi([
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function nonces(address owner) view returns (uint256)',
])

/** The sandbox token's faucet functions (only the deployer may call them). */
export const sandboxTokenAbi = parseAbi([
  'function mint(address to, uint256 amount)',
  'function mintBatch(address[] to, uint256 amount)',
])

/** Request Network's ERC20FeeProxy: function and event. */
export const erc20FeeProxyAbi = parseAbi([
  'function transferFromWithReferenceAndFee(address _tokenAddress, address _to, uint256 _amount, bytes _paymentReference, uint256 _feeAmount, address _feeAddress)',
  'event TransferWithReferenceAndFee(address tokenAddress, address to, uint256 amount, bytes indexed paymentReference, uint256 feeAmount, address feeAddress)',
])

/** Request Network's EthereumFeeProxy: function and event. */
export const ethFeeProxyAbi = parseAbi([
  'function transferWithReferenceAndFee(address _to, bytes _paymentReference, uint256 _feeAmount, address _feeAddress) payable',
  'event TransferWithReferenceAndFee(address to, uint256 amount, bytes indexed paymentReference, uint256 feeAmount, address feeAddress)',
])

/** Request Network's Erc20ConversionProxy payment function. */
export const erc20ConversionProxyAbi = parseAbi([
  'function transferFromWithReferenceAndFee(address _to, uint256 _requestAmount, address[] _path, bytes _paymentReference, uint256 _feeAmount, address _feeAddress, uint256 _maxToSpend, uint256 _maxRateTimespan)',
])

/** Request Network's EthConversionProxy payment function (payable; the excess value is refunded). */
export const ethConversionProxyAbi = parseAbi([
  'function transferWithReferenceAndFee(address _to, uint256 _requestAmount, address[] _path, bytes _paymentReference, uint256 _feeAmount, address _feeAddress, uint256 _maxRateTimespan) payable',
])

/** The event both conversion proxies emit after the fee proxy's transfer event. */
export const conversionEventAbi = parseAbi([
  'event TransferWithConversionAndReference(uint256 amount, address currency, bytes indexed paymentReference, uint256 feeAmount, uint256 maxRateTimespan)',
])

/** The events the detector reads: ERC20FeeProxy's, EthereumFeeProxy's and the conversion proxies' own. */
export const detectionAbi = [erc20FeeProxyAbi[1], ethFeeProxyAbi[1], conversionEventAbi[0]] as const

/** Our SandboxPermit2 (Permit2's permitWitnessTransferFrom and nonceBitmap). */
export const permit2Abi = artifacts.SandboxPermit2.abi
/** Request Network's BatchConversionPayments. */
export const batchConversionPaymentsAbi = artifacts.BatchConversionPayments.abi
/** Request Network's ChainlinkConversionPath (getConversion, updateAggregatorsList). */
export const chainlinkConversionPathAbi = artifacts.ChainlinkConversionPath.abi
/** Our recurring payment proxy (contracts/RecurringPaymentProxy.sol). */
export const recurringProxyAbi = artifacts.RecurringPaymentProxy.abi
