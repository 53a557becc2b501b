// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SandboxToken} from "./SandboxToken.sol";

/// @title Request Sandbox Tether token
/// @notice SandboxToken with Tether's approval rule: an allowance can be set from zero or to zero, never changed
///         from one non-zero value to another (USDT on Tron and Ethereum; payers approve 0 first).
contract SandboxTetherToken is SandboxToken {
    /// @notice approve(spender, value) with value != 0 while the current allowance is not 0.
    error SandboxTetherNonZeroAllowance(address owner, address spender, uint256 current);

    constructor(
        string memory tokenName,
        string memory tokenSymbol,
        uint8 tokenDecimals,
        string memory permitVersion,
        address minterAccount
    ) SandboxToken(tokenName, tokenSymbol, tokenDecimals, permitVersion, minterAccount) {}

    /// @notice ERC-20 approve, refused from a non-zero allowance to another non-zero value.
    function approve(address spender, uint256 value) public override returns (bool) {
        uint256 current = allowance(msg.sender, spender);
        if (value != 0 && current != 0) revert SandboxTetherNonZeroAllowance(msg.sender, spender, current);
        return super.approve(spender, value);
    }
}
