#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a pthread mutex: OpenCapture's lock for shared state.
///
/// Why not `Synchronization.Mutex`: on Linux it takes a contended lock through a raw futex,
/// which ThreadSanitizer cannot see, so correct code that uses it reports races; TSan
/// intercepts `pthread_mutex_lock`. The cost is one allocation when the lock is made, never
/// per use. Each module that uses it names it `Mutex` (a module-level typealias shadows
/// `Synchronization.Mutex`), so the code reads as it would with the standard library's.
///
/// Never call user code or wait for another thread inside `withLock`.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ initialValue: consuming Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
