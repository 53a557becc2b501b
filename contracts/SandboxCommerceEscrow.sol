// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @notice The part of Request Network's ERC20FeeProxy the escrow pays merchants through.
interface IEscrowFeeProxy {
    function transferFromWithReferenceAndFee(
        address tokenAddress,
        address to,
        uint256 amount,
        bytes calldata paymentReference,
        uint256 feeAmount,
        address feeAddress
    ) external;
}

/// @title Request Sandbox commerce escrow
/// @notice Authorize, capture, void and refund for commerce payments, one hold per Request Network payment
///         reference. Authorizing moves the payer's tokens into this contract; capturing pays the merchant through
///         ERC20FeeProxy with the payment reference (so the usual payment detection sees the capture); voiding
///         (operator) or reclaiming (payer, once the authorization expired) returns what was not captured; a
///         refund sends captured funds back to the payer from the refunder's own balance.
/// @dev The sandbox's own contract, written for the commerce-payments endpoints. The constructor only sets an
///      immutable, so the runtime code can be installed at a fixed address without a transaction.
contract SandboxCommerceEscrow {
    using SafeERC20 for IERC20;

    /// @notice One hold, as the escrow keeps it (amounts in the token's base units).
    struct Hold {
        address payer;
        address merchant;
        address operator;
        address token;
        uint256 authorizedAmount;
        uint256 maxAmount;
        uint256 capturableAmount;
        uint256 capturedAmount;
        uint256 refundedAmount;
        uint64 preApprovalExpiry;
        uint64 authorizationExpiry;
        uint64 refundExpiry;
        bool voided;
        bool reclaimed;
        uint16 maxFeeBps;
        address feeReceiver;
    }

    uint16 public constant MAX_FEE_BPS = 10_000;

    IEscrowFeeProxy public immutable feeProxy;

    mapping(bytes8 paymentReference => Hold) private _holds;

    event PaymentAuthorized(
        bytes8 indexed paymentReference,
        address indexed payer,
        address merchant,
        address operator,
        address token,
        uint256 amount
    );
    event PaymentCaptured(bytes8 indexed paymentReference, uint256 amount, uint256 feeAmount, address feeReceiver);
    event PaymentVoided(bytes8 indexed paymentReference, uint256 amount);
    event PaymentReclaimed(bytes8 indexed paymentReference, uint256 amount);
    event PaymentRefunded(bytes8 indexed paymentReference, uint256 amount, address refunder);

    error ZeroAddress();
    error ZeroAmount();
    error AlreadyAuthorized(bytes8 paymentReference);
    error UnknownPayment(bytes8 paymentReference);
    error NotPayerOrOperator(address caller);
    error NotOperator(address caller);
    error NotPayer(address caller);
    error NotOperatorOrMerchant(address caller);
    error AmountAboveMaximum(uint256 amount, uint256 maxAmount);
    error InvalidExpiries(uint64 preApprovalExpiry, uint64 authorizationExpiry, uint64 refundExpiry);
    error PreApprovalExpired(uint64 preApprovalExpiry);
    error AuthorizationExpired(uint64 authorizationExpiry);
    error AuthorizationNotExpired(uint64 authorizationExpiry);
    error RefundWindowClosed(uint64 refundExpiry);
    error NothingToCapture(bytes8 paymentReference);
    error AmountAboveCapturable(uint256 amount, uint256 capturableAmount);
    error AmountAboveRefundable(uint256 amount, uint256 refundableAmount);
    error FeeAboveMaximum(uint16 feeBps);
    error FeeAboveAuthorized(uint16 feeBps, uint16 maxFeeBps);
    error FeeReceiverNotAuthorized(address feeReceiver, address authorizedFeeReceiver);

    constructor(address feeProxy_) {
        if (feeProxy_ == address(0)) revert ZeroAddress();
        feeProxy = IEscrowFeeProxy(feeProxy_);
    }

    /// @notice Holds `amount` of the payer's `token` for `merchant`. Sent by the payer, or by the operator when
    ///         the payer approved this contract for the token (the allowance is the pre-approval). The payer's terms
    ///         bind the captures: at most `maxFeeBps` of each, and only to `feeReceiver` (no fee when it is zero).
    function authorizePayment(
        bytes8 paymentReference,
        address payer,
        address merchant,
        address operator,
        address token,
        uint256 amount,
        uint256 maxAmount,
        uint64 preApprovalExpiry,
        uint64 authorizationExpiry,
        uint64 refundExpiry,
        uint16 maxFeeBps,
        address feeReceiver
    ) external {
        if (maxFeeBps > MAX_FEE_BPS) revert FeeAboveMaximum(maxFeeBps);
        if (maxFeeBps > 0 && feeReceiver == address(0)) revert ZeroAddress();
        if (payer == address(0) || merchant == address(0) || operator == address(0) || token == address(0)) {
            revert ZeroAddress();
        }
        if (amount == 0) revert ZeroAmount();
        if (amount > maxAmount) revert AmountAboveMaximum(amount, maxAmount);
        if (preApprovalExpiry > authorizationExpiry || authorizationExpiry > refundExpiry) {
            revert InvalidExpiries(preApprovalExpiry, authorizationExpiry, refundExpiry);
        }
        if (block.timestamp >= preApprovalExpiry) revert PreApprovalExpired(preApprovalExpiry);
        if (msg.sender != payer && msg.sender != operator) revert NotPayerOrOperator(msg.sender);
        Hold storage hold = _holds[paymentReference];
        if (hold.payer != address(0)) revert AlreadyAuthorized(paymentReference);

        hold.payer = payer;
        hold.merchant = merchant;
        hold.operator = operator;
        hold.token = token;
        hold.authorizedAmount = amount;
        hold.maxAmount = maxAmount;
        hold.capturableAmount = amount;
        hold.preApprovalExpiry = preApprovalExpiry;
        hold.authorizationExpiry = authorizationExpiry;
        hold.refundExpiry = refundExpiry;
        hold.maxFeeBps = maxFeeBps;
        hold.feeReceiver = feeReceiver;

        IERC20(token).safeTransferFrom(payer, address(this), amount);
        emit PaymentAuthorized(paymentReference, payer, merchant, operator, token, amount);
    }

    /// @notice Pays `amount` of the hold to the merchant (minus `feeBps` of it to `feeReceiver`); partial captures
    ///         are allowed until the authorization expires. Operator only, within the fee the payer authorized: at
    ///         most its `maxFeeBps`, to its `feeReceiver`.
    function capturePayment(bytes8 paymentReference, uint256 amount, uint16 feeBps, address feeReceiver) external {
        Hold storage hold = _existing(paymentReference);
        if (msg.sender != hold.operator) revert NotOperator(msg.sender);
        if (block.timestamp >= hold.authorizationExpiry) revert AuthorizationExpired(hold.authorizationExpiry);
        if (hold.capturableAmount == 0) revert NothingToCapture(paymentReference);
        if (amount == 0) revert ZeroAmount();
        if (amount > hold.capturableAmount) revert AmountAboveCapturable(amount, hold.capturableAmount);
        if (feeBps > hold.maxFeeBps) revert FeeAboveAuthorized(feeBps, hold.maxFeeBps);
        if (feeBps > 0 && feeReceiver != hold.feeReceiver) {
            revert FeeReceiverNotAuthorized(feeReceiver, hold.feeReceiver);
        }

        hold.capturableAmount -= amount;
        hold.capturedAmount += amount;

        uint256 fee = (amount * feeBps) / MAX_FEE_BPS;
        IERC20 token = IERC20(hold.token);
        token.forceApprove(address(feeProxy), amount);
        feeProxy.transferFromWithReferenceAndFee(
            hold.token, hold.merchant, amount - fee, abi.encodePacked(paymentReference), fee, feeReceiver
        );
        emit PaymentCaptured(paymentReference, amount, fee, feeReceiver);
    }

    /// @notice Returns what is still held to the payer. Operator only.
    function voidPayment(bytes8 paymentReference) external {
        Hold storage hold = _existing(paymentReference);
        if (msg.sender != hold.operator) revert NotOperator(msg.sender);
        uint256 amount = hold.capturableAmount;
        if (amount == 0) revert NothingToCapture(paymentReference);
        hold.capturableAmount = 0;
        hold.voided = true;
        IERC20(hold.token).safeTransfer(hold.payer, amount);
        emit PaymentVoided(paymentReference, amount);
    }

    /// @notice The payer takes back what is still held once the authorization has expired.
    function reclaimPayment(bytes8 paymentReference) external {
        Hold storage hold = _existing(paymentReference);
        if (msg.sender != hold.payer) revert NotPayer(msg.sender);
        if (block.timestamp < hold.authorizationExpiry) revert AuthorizationNotExpired(hold.authorizationExpiry);
        uint256 amount = hold.capturableAmount;
        if (amount == 0) revert NothingToCapture(paymentReference);
        hold.capturableAmount = 0;
        hold.reclaimed = true;
        IERC20(hold.token).safeTransfer(hold.payer, amount);
        emit PaymentReclaimed(paymentReference, amount);
    }

    /// @notice Sends `amount` of what was captured back to the payer, from the sender's own tokens (the sender
    ///         approves this contract first). Operator or merchant, before the refund window closes.
    function refundPayment(bytes8 paymentReference, uint256 amount) external {
        Hold storage hold = _existing(paymentReference);
        if (msg.sender != hold.operator && msg.sender != hold.merchant) revert NotOperatorOrMerchant(msg.sender);
        if (block.timestamp >= hold.refundExpiry) revert RefundWindowClosed(hold.refundExpiry);
        if (amount == 0) revert ZeroAmount();
        uint256 refundable = hold.capturedAmount - hold.refundedAmount;
        if (amount > refundable) revert AmountAboveRefundable(amount, refundable);
        hold.refundedAmount += amount;
        IERC20(hold.token).safeTransferFrom(msg.sender, hold.payer, amount);
        emit PaymentRefunded(paymentReference, amount, msg.sender);
    }

    /// @notice The hold under a payment reference (a zero payer: never authorized).
    function getPayment(bytes8 paymentReference) external view returns (Hold memory) {
        return _holds[paymentReference];
    }

    function _existing(bytes8 paymentReference) private view returns (Hold storage hold) {
        hold = _holds[paymentReference];
        if (hold.payer == address(0)) revert UnknownPayment(paymentReference);
    }
}
