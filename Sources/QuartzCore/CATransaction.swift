import Foundation

/// Core Animation's transactions (CATransaction.h), for the code that wraps layer changes
/// in them (`begin()`, `setDisableActions(true)`, frame changes, `commit()`).
///
/// Layers here never animate, so every change is in effect at once and a transaction has
/// nothing to wait for: its completion block runs when it commits, on the committing
/// thread, after the changes it holds. Transactions nest per thread, as on Apple
/// platforms; the values (`animationDuration`, `disableActions`, `setValue(_:forKey:)`)
/// are read from the innermost one. Changes made outside an explicit transaction belong to
/// the thread's implicit transaction, which `flush()` commits (Core Animation commits it
/// at the end of the run loop's turn; a Linux program need not run one), as does the
/// `begin()` of the next explicit transaction, whose changes come after it.
open class CATransaction: NSObject {
    private struct Transaction {
        var values: [String: Any] = [:]
        var completion: (() -> Void)?
        var implicit = false
    }

    private static let animationDurationKey = "animationDuration"
    private static let disableActionsKey = "disableActions"
    /// The thread's transactions, outermost first.
    private static let stackKey = "OpenCapture.CATransaction"

    private static var stack: [Transaction] {
        get { Thread.current.threadDictionary[stackKey] as? [Transaction] ?? [] }
        set { Thread.current.threadDictionary[stackKey] = newValue }
    }

    /// The innermost transaction, opening the implicit one when there is none.
    private static func withCurrent<Result>(_ body: (inout Transaction) -> Result) -> Result {
        var transactions = stack
        if transactions.isEmpty { transactions.append(Transaction(implicit: true)) }
        let result = body(&transactions[transactions.count - 1])
        stack = transactions
        return result
    }

    /// Opens a transaction on this thread, nested in any open one. A pending implicit
    /// transaction is committed first.
    open class func begin() {
        var transactions = stack
        if transactions.count == 1, transactions[0].implicit {
            stack = []
            transactions[0].completion?()
            transactions = []
        }
        transactions.append(Transaction())
        stack = transactions
    }

    /// Closes the innermost transaction and runs its completion block. Without an open
    /// explicit transaction it commits the implicit one, if any.
    open class func commit() {
        var transactions = stack
        guard let finished = transactions.popLast() else { return }
        stack = transactions
        finished.completion?()
    }

    /// Commits the implicit transaction, if any (explicit ones are left open).
    open class func flush() {
        let transactions = stack
        guard transactions.count == 1, transactions[0].implicit else { return }
        stack = []
        transactions[0].completion?()
    }

    private static let globalLock = NSRecursiveLock()

    /// Takes the global transaction lock (recursive).
    open class func lock() { globalLock.lock() }
    /// Lets go of the global transaction lock.
    open class func unlock() { globalLock.unlock() }

    /// The duration implicit animations would have (default 0.25 s); none run here.
    open class func animationDuration() -> CFTimeInterval {
        (value(forKey: animationDurationKey) as? CFTimeInterval) ?? 0.25
    }

    /// Sets the innermost transaction's animation duration.
    open class func setAnimationDuration(_ dur: CFTimeInterval) { setValue(dur, forKey: animationDurationKey) }

    /// Whether the innermost transaction suppresses implicit actions (default false).
    open class func disableActions() -> Bool { (value(forKey: disableActionsKey) as? Bool) ?? false }

    /// Sets whether the innermost transaction suppresses implicit actions.
    open class func setDisableActions(_ flag: Bool) { setValue(flag, forKey: disableActionsKey) }

    /// The innermost transaction's completion block.
    open class func completionBlock() -> (() -> Void)? { withCurrent { $0.completion } }

    /// Sets the block run when the innermost transaction commits (replacing any set before).
    open class func setCompletionBlock(_ block: (() -> Void)?) { withCurrent { $0.completion = block } }

    /// A value of the innermost transaction that sets `key`, searching outwards.
    open class func value(forKey key: String) -> Any? {
        for transaction in stack.reversed() {
            if let value = transaction.values[key] { return value }
        }
        return nil
    }

    /// Sets a value of the innermost transaction.
    open class func setValue(_ anObject: Any?, forKey key: String) { withCurrent { $0.values[key] = anObject } }
}
