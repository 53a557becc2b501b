// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";

/// @notice The part of Request Network's ERC20FeeProxy this contract calls.
interface IFeeProxy {
    function transferFromWithReferenceAndFee(
        address tokenAddress,
        address to,
        uint256 amount,
        bytes calldata paymentReference,
        uint256 feeAmount,
        address feeAddress
    ) external;
}

/// @title Request Sandbox recurring payment proxy
/// @notice A subscriber signs one EIP-712 SchedulePermit and approves this contract; a relayer then triggers each
///         payment of the schedule when it falls due. Every payment goes through ERC20FeeProxy with a payment
///         reference chosen per execution, so the usual TransferWithReferenceAndFee detection sees it.
/// @dev The sandbox's own implementation of the interface Request Network publishes for its
///      ERC20RecurringPaymentProxy v0.1.0: same typed data, same entry point, same checks in the same order,
///      same error names. The constructor only writes storage (roles, owner) and immutables, so the runtime code
///      and storage can be copied to a fixed address; EIP712 then rebuilds its domain for that address.
contract RecurringPaymentProxy is EIP712, AccessControl, Ownable, Pausable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice What the subscriber signs: who pays what to whom, how often, how many times.
    struct SchedulePermit {
        address subscriber;
        address token;
        address recipient;
        address feeAddress;
        uint128 amount;
        uint128 feeAmount;
        uint128 relayerFee;
        uint32 periodSeconds;
        uint32 firstPayment;
        uint8 totalPayments;
        uint256 nonce;
        uint256 deadline;
        bool strictOrder;
    }

    /// @notice The role allowed to trigger payments.
    bytes32 public constant RELAYER_ROLE = keccak256("RELAYER_ROLE");

    /// @dev EIP-712 type hash of SchedulePermit (field order and names are part of the signed data).
    bytes32 private constant SCHEDULE_PERMIT_TYPEHASH = keccak256(
        "SchedulePermit(address subscriber,address token,address recipient,address feeAddress,uint128 amount,uint128 feeAmount,uint128 relayerFee,uint32 periodSeconds,uint32 firstPayment,uint8 totalPayments,uint256 nonce,uint256 deadline,bool strictOrder)"
    );

    /// @notice The ERC20FeeProxy every payment goes through.
    address public erc20FeeProxy;

    /// @notice Per schedule (its EIP-712 digest): bit i is set once payment i has been made.
    mapping(bytes32 => uint256) public triggeredPaymentsBitmap;

    /// @notice Per schedule (its EIP-712 digest): the highest payment index made so far (0 before the first).
    mapping(bytes32 => uint8) public lastPaymentIndex;

    error ERC20RecurringPaymentProxy__ZeroAddress();
    error ERC20RecurringPaymentProxy__BadSignature();
    error ERC20RecurringPaymentProxy__SignatureExpired();
    error ERC20RecurringPaymentProxy__PaymentOutOfOrder();
    error ERC20RecurringPaymentProxy__IndexOutOfBounds();
    error ERC20RecurringPaymentProxy__NotDueYet();
    error ERC20RecurringPaymentProxy__AlreadyPaid();

    /// @param adminSafe Owner and DEFAULT_ADMIN_ROLE holder.
    /// @param relayerEOA First holder of RELAYER_ROLE.
    /// @param erc20FeeProxyAddress The ERC20FeeProxy payments go through.
    constructor(address adminSafe, address relayerEOA, address erc20FeeProxyAddress)
        EIP712("ERC20RecurringPaymentProxy", "1")
        Ownable(_nonZero(adminSafe))
    {
        _grantRole(DEFAULT_ADMIN_ROLE, adminSafe);
        _grantRole(RELAYER_ROLE, _nonZero(relayerEOA));
        erc20FeeProxy = _nonZero(erc20FeeProxyAddress);
    }

    /// @notice Makes payment `index` (1-based) of the schedule `permit` signed by its subscriber.
    /// @param permit The schedule, exactly as signed.
    /// @param signature The subscriber's EIP-712 signature over `permit` (65 bytes).
    /// @param index Which payment of the schedule this is, from 1 to totalPayments.
    /// @param paymentReference The reference ERC20FeeProxy logs for this payment (not part of the signature).
    function triggerRecurringPayment(
        SchedulePermit calldata permit,
        bytes calldata signature,
        uint8 index,
        bytes calldata paymentReference
    ) external whenNotPaused onlyRole(RELAYER_ROLE) nonReentrant {
        _checkAndRecord(permit, signature, index);
        _pay(permit, paymentReference);
    }

    /// @dev Checks, in this order: signature, deadline, order, bounds, due time, not yet paid; then records the
    ///      payment as made (before any token moves).
    function _checkAndRecord(SchedulePermit calldata permit, bytes calldata signature, uint8 index) private {
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(SCHEDULE_PERMIT_TYPEHASH, permit)));
        (address signer, ECDSA.RecoverError failure,) = ECDSA.tryRecoverCalldata(digest, signature);
        if (failure != ECDSA.RecoverError.NoError || signer != permit.subscriber) {
            revert ERC20RecurringPaymentProxy__BadSignature();
        }
        if (block.timestamp > permit.deadline) revert ERC20RecurringPaymentProxy__SignatureExpired();
        uint8 last = lastPaymentIndex[digest];
        if (permit.strictOrder && uint256(index) != uint256(last) + 1) {
            revert ERC20RecurringPaymentProxy__PaymentOutOfOrder();
        }
        if (index == 0 || index > permit.totalPayments) revert ERC20RecurringPaymentProxy__IndexOutOfBounds();
        uint256 dueAt = uint256(permit.firstPayment) + uint256(index - 1) * uint256(permit.periodSeconds);
        if (block.timestamp < dueAt) revert ERC20RecurringPaymentProxy__NotDueYet();
        uint256 bit = uint256(1) << index;
        uint256 paid = triggeredPaymentsBitmap[digest];
        if (paid & bit != 0) revert ERC20RecurringPaymentProxy__AlreadyPaid();
        triggeredPaymentsBitmap[digest] = paid | bit;
        if (index > last) lastPaymentIndex[digest] = index;
    }

    /// @dev Pulls amount + fee + relayer fee from the subscriber, pays recipient and fee through ERC20FeeProxy,
    ///      and hands the relayer fee to the caller.
    function _pay(SchedulePermit calldata permit, bytes calldata paymentReference) private {
        IERC20 token = IERC20(permit.token);
        uint256 toRecipient = uint256(permit.amount) + uint256(permit.feeAmount);
        token.safeTransferFrom(permit.subscriber, address(this), toRecipient + uint256(permit.relayerFee));
        token.forceApprove(erc20FeeProxy, toRecipient);
        IFeeProxy(erc20FeeProxy).transferFromWithReferenceAndFee(
            permit.token, permit.recipient, permit.amount, paymentReference, permit.feeAmount, permit.feeAddress
        );
        if (permit.relayerFee != 0) token.safeTransfer(msg.sender, permit.relayerFee);
    }

    /// @notice Moves RELAYER_ROLE from `oldRelayer` to `newRelayer`.
    function setRelayer(address oldRelayer, address newRelayer) external onlyOwner {
        _revokeRole(RELAYER_ROLE, oldRelayer);
        _grantRole(RELAYER_ROLE, _nonZero(newRelayer));
    }

    /// @notice Points payments at another ERC20FeeProxy.
    function setFeeProxy(address newFeeProxy) external onlyOwner {
        erc20FeeProxy = _nonZero(newFeeProxy);
    }

    /// @notice Stops every trigger until unpause.
    function pause() external onlyOwner {
        _pause();
    }

    /// @notice Lets triggers run again.
    function unpause() external onlyOwner {
        _unpause();
    }

    function _nonZero(address account) private pure returns (address) {
        if (account == address(0)) revert ERC20RecurringPaymentProxy__ZeroAddress();
        return account;
    }
}
