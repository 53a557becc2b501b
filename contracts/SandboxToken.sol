// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";
import {ShortString, ShortStrings} from "@openzeppelin/contracts/utils/ShortStrings.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";

/// @title Request Sandbox token
/// @notice The ERC-20 that stands in for a real token on the sandbox chain.
/// @dev Everything the constructor decides (metadata, permit version, minter) is kept in immutables, so the
///      runtime code can be copied verbatim to the real token's address (anvil_setCode) and behave the same
///      there: nothing it needs lives in storage. The EIP-712 domain uses address(this), so permits signed
///      for the copy's address verify at that address.
contract SandboxToken is ERC20, EIP712, Nonces {
    using ShortStrings for string;
    using ShortStrings for ShortString;

    /// @dev keccak256 of the EIP-2612 Permit struct type.
    bytes32 private constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");

    ShortString private immutable _metaName;
    ShortString private immutable _metaSymbol;
    uint8 private immutable _metaDecimals;
    bool private immutable _permitEnabled;

    /// @notice The only account allowed to mint.
    address public immutable minter;

    /// @notice A mint came from an account other than the minter.
    error SandboxTokenUnauthorizedMinter(address caller);
    /// @notice This token was configured without EIP-2612 permit.
    error SandboxTokenPermitDisabled();
    /// @notice The permit's deadline has passed.
    error SandboxTokenPermitExpired(uint256 deadline);
    /// @notice The permit was not signed by the owner it names.
    error SandboxTokenPermitBadSigner(address recovered, address owner);

    /// @param tokenName ERC-20 name, also the EIP-712 domain name (at most 31 bytes).
    /// @param tokenSymbol ERC-20 symbol (at most 31 bytes).
    /// @param tokenDecimals ERC-20 decimals.
    /// @param permitVersion EIP-712 domain version of permit ("2" like USDC); empty disables permit.
    /// @param minterAccount The account allowed to mint.
    constructor(
        string memory tokenName,
        string memory tokenSymbol,
        uint8 tokenDecimals,
        string memory permitVersion,
        address minterAccount
    ) ERC20("", "") EIP712(tokenName, permitVersion) {
        // toShortString reverts for strings over 31 bytes: such a value could only live in storage.
        _metaName = tokenName.toShortString();
        _metaSymbol = tokenSymbol.toShortString();
        _metaDecimals = tokenDecimals;
        _permitEnabled = bytes(permitVersion).length != 0;
        minter = minterAccount;
    }

    modifier onlyMinter() {
        if (msg.sender != minter) revert SandboxTokenUnauthorizedMinter(msg.sender);
        _;
    }

    modifier whenPermitEnabled() {
        if (!_permitEnabled) revert SandboxTokenPermitDisabled();
        _;
    }

    /// @inheritdoc ERC20
    function name() public view override returns (string memory) {
        return _metaName.toString();
    }

    /// @inheritdoc ERC20
    function symbol() public view override returns (string memory) {
        return _metaSymbol.toString();
    }

    /// @inheritdoc ERC20
    function decimals() public view override returns (uint8) {
        return _metaDecimals;
    }

    /// @notice Creates `amount` base units for `to`.
    function mint(address to, uint256 amount) external onlyMinter {
        _mint(to, amount);
    }

    /// @notice Creates `amount` base units for each address of `to`.
    function mintBatch(address[] calldata to, uint256 amount) external onlyMinter {
        uint256 count = to.length;
        for (uint256 i; i < count; ++i) {
            _mint(to[i], amount);
        }
    }

    /// @notice EIP-2612: sets `spender`'s allowance over `owner`'s tokens from the owner's signature.
    function permit(
        address owner,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external whenPermitEnabled {
        if (block.timestamp > deadline) revert SandboxTokenPermitExpired(deadline);
        uint256 nonce = _useNonce(owner);
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(PERMIT_TYPEHASH, owner, spender, value, nonce, deadline)));
        address recovered = ECDSA.recover(digest, v, r, s);
        if (recovered != owner) revert SandboxTokenPermitBadSigner(recovered, owner);
        _approve(owner, spender, value);
    }

    /// @notice EIP-2612 nonce of `owner`; reverts when permit is disabled, as a token without permit would.
    function nonces(address owner) public view override whenPermitEnabled returns (uint256) {
        return super.nonces(owner);
    }

    /// @notice EIP-712 domain separator at this address and chain; reverts when permit is disabled.
    // solhint-disable-next-line func-name-mixedcase
    function DOMAIN_SEPARATOR() external view whenPermitEnabled returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @notice ERC-5267 description of the EIP-712 domain; reverts when permit is disabled.
    function eip712Domain()
        public
        view
        override
        whenPermitEnabled
        returns (
            bytes1 fields,
            string memory domainName,
            string memory domainVersion,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        )
    {
        return super.eip712Domain();
    }
}
