import { parseAbi } from 'viem'

/** The ERC-20 functions the sandbox encodes or reads. */
export const erc20Abi = parseAbi([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
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
