// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title Request Sandbox Permit2
/// @notice The sandbox's own stand-in for the signature-transfer side of Permit2, installed at Permit2's canonical
///         address on every sandbox chain. It verifies a payer's EIP-712 `PermitBatchWitnessTransferFrom` signature
///         (domain {name: "Permit2", chainId, verifyingContract}, no version), consumes the unordered nonce once and
///         moves the permitted tokens for the spender that the payer named. Only the batch witness transfer that
///         Request Network's cross-chain payment intents use is implemented.
/// @dev Written for the sandbox from the published EIP-712 type strings and behaviour; no storage is set by a
///      constructor and the domain separator is computed from address(this), so the runtime code can be copied to
///      the canonical address (anvil_setCode) and verify signatures made for that address.
contract SandboxPermit2 {
    using SafeERC20 for IERC20;

    /// @notice A token and the most the spender may move of it.
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    /// @notice What the owner signed: tokens and amounts, an unordered nonce and a deadline (spender is msg.sender).
    struct PermitBatchTransferFrom {
        TokenPermissions[] permitted;
        uint256 nonce;
        uint256 deadline;
    }

    /// @notice Where one permitted token goes and how much of it.
    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("Permit2");
    bytes32 private constant TOKEN_PERMISSIONS_TYPEHASH = keccak256("TokenPermissions(address token,uint256 amount)");
    /// @dev The witness type string completes this prefix into the full EIP-712 type of the signed struct.
    string private constant BATCH_WITNESS_PREFIX =
        "PermitBatchWitnessTransferFrom(TokenPermissions[] permitted,address spender,uint256 nonce,uint256 deadline,";

    /// @notice Used unordered nonces: owner => word (nonce >> 8) => bitmap of bits (nonce & 0xff).
    mapping(address owner => mapping(uint256 word => uint256 bits)) public nonceBitmap;

    /// @notice The signature's deadline has passed.
    error SignatureExpired(uint256 signatureDeadline);
    /// @notice The nonce was already used by this owner.
    error InvalidNonce();
    /// @notice The signature was not made by the owner.
    error InvalidSigner();
    /// @notice permitted and transferDetails differ in length.
    error LengthMismatch();
    /// @notice A transfer asks for more than was permitted.
    error InvalidAmount(uint256 maxAmount);

    /// @notice EIP-712 domain separator at this address and chain.
    // solhint-disable-next-line func-name-mixedcase
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, block.chainid, address(this)));
    }

    /// @notice Moves the permitted tokens of `owner` as `transferDetails` say, if `owner` signed `permit` with
    ///         msg.sender as spender and `witness` (the hash of the witness struct typed by `witnessTypeString`).
    function permitWitnessTransferFrom(
        PermitBatchTransferFrom calldata permit,
        SignatureTransferDetails[] calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external {
        if (block.timestamp > permit.deadline) revert SignatureExpired(permit.deadline);
        if (transferDetails.length != permit.permitted.length) revert LengthMismatch();
        _useUnorderedNonce(owner, permit.nonce);
        if (ECDSA.recover(_digest(permit, witness, witnessTypeString), signature) != owner) revert InvalidSigner();
        _transferAll(permit.permitted, transferDetails, owner);
    }

    /// @dev Moves each requested amount (at most its permitted amount) from `owner`; zero amounts are skipped.
    function _transferAll(
        TokenPermissions[] calldata permitted,
        SignatureTransferDetails[] calldata transferDetails,
        address owner
    ) private {
        for (uint256 i; i < permitted.length; ++i) {
            uint256 requested = transferDetails[i].requestedAmount;
            if (requested > permitted[i].amount) revert InvalidAmount(permitted[i].amount);
            if (requested != 0) IERC20(permitted[i].token).safeTransferFrom(owner, transferDetails[i].to, requested);
        }
    }

    /// @dev The EIP-712 digest of the batch witness permit, msg.sender as spender.
    function _digest(PermitBatchTransferFrom calldata permit, bytes32 witness, string calldata witnessTypeString)
        private
        view
        returns (bytes32)
    {
        uint256 count = permit.permitted.length;
        bytes32[] memory permissionHashes = new bytes32[](count);
        for (uint256 i; i < count; ++i) {
            TokenPermissions calldata p = permit.permitted[i];
            permissionHashes[i] = keccak256(abi.encode(TOKEN_PERMISSIONS_TYPEHASH, p.token, p.amount));
        }
        bytes32 typeHash = keccak256(abi.encodePacked(BATCH_WITNESS_PREFIX, witnessTypeString));
        bytes32 structHash = keccak256(
            abi.encode(
                typeHash,
                keccak256(abi.encodePacked(permissionHashes)),
                msg.sender,
                permit.nonce,
                permit.deadline,
                witness
            )
        );
        return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
    }

    /// @dev Marks `nonce` used for `owner`; reverts if it already was.
    function _useUnorderedNonce(address owner, uint256 nonce) private {
        uint256 bit = 1 << (nonce & 0xff);
        uint256 flipped = nonceBitmap[owner][nonce >> 8] ^= bit;
        if (flipped & bit == 0) revert InvalidNonce();
    }
}
