import Foundation

/// A value behind a lock. Unlike `Mutex` it holds non-sendable values (a layer's contents
/// and delegate), which the lock makes safe to share.
final class LayerLock<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
