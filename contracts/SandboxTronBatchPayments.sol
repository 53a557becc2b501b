// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev What the batch needs of Request Network's ERC20FeeProxy.
interface ITronBatchFeeProxy {
    function transferFromWithReferenceAndFee(
        address tokenAddress,
        address to,
        uint256 amount,
        bytes memory paymentReference,
        uint256 feeAmount,
        address feeAddress
    ) external;
}

/// @dev What the batch needs of a TRC-20 token.
interface ITronBatchToken {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function approve(address spender, uint256 value) external returns (bool);
    function allowance(address owner, address spender) external view returns (uint256);
}

/// @title Request Sandbox Tron batch payments
/// @notice The sandbox's stand-in for Request Network's Tron batch contract, at its published Tron address, with its
///         entry point: one transaction pays every recipient, each payment through ERC20FeeProxy with its own payment
///         reference (so each is detected like a single payment). The payer approves this contract; it pulls the
///         whole sum once, then lets the proxy spend it (its allowance reset to 0 first, as Tether requires).
/// @dev Every recipient is paid or none: a failing payment reverts the batch.
contract SandboxTronBatchPayments {
    /// @notice Request Network's ERC20FeeProxy on this chain.
    address public immutable feeProxy;

    /// @notice The arrays of one batch do not have the same length.
    error SandboxBatchLengthMismatch();
    /// @notice The token refused to move the batch's sum from the payer.
    error SandboxBatchTransferFailed(address payer, uint256 total);
    /// @notice A payment of the batch has no recipient.
    error SandboxBatchNoRecipient(uint256 index);

    constructor(address erc20FeeProxy) {
        feeProxy = erc20FeeProxy;
    }

    /// @notice Pays `amounts[i]` (and `feeAmounts[i]` to `feeAddress`) to `recipients[i]` with `paymentReferences[i]`,
    ///         in `token`, for every i, from the caller.
    function batchERC20PaymentsWithReference(
        address token,
        address[] memory recipients,
        uint256[] memory amounts,
        bytes[] memory paymentReferences,
        uint256[] memory feeAmounts,
        address feeAddress
    ) external {
        uint256 count = recipients.length;
        if (amounts.length != count || paymentReferences.length != count || feeAmounts.length != count) {
            revert SandboxBatchLengthMismatch();
        }
        uint256 total = 0;
        for (uint256 i = 0; i < count; ++i) {
            total += amounts[i] + feeAmounts[i];
        }
        if (total == 0) return;
        ITronBatchToken asset = ITronBatchToken(token);
        if (!asset.transferFrom(msg.sender, address(this), total)) revert SandboxBatchTransferFailed(msg.sender, total);
        uint256 allowed = asset.allowance(address(this), feeProxy);
        if (allowed < total) {
            if (allowed != 0) asset.approve(feeProxy, 0);
            asset.approve(feeProxy, type(uint256).max);
        }
        for (uint256 i = 0; i < count; ++i) {
            if (amounts[i] + feeAmounts[i] == 0) continue;
            if (recipients[i] == address(0)) revert SandboxBatchNoRecipient(i);
            ITronBatchFeeProxy(feeProxy).transferFromWithReferenceAndFee(
                token, recipients[i], amounts[i], paymentReferences[i], feeAmounts[i], feeAddress
            );
        }
    }
}
