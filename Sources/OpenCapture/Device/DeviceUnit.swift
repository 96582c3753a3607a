import Synchronization

/// One concern of a device's settings (`ExposureSettings`, `FocusSettings`, ...) behind
/// its own lock: a setter of one concern never waits on another's.
///
/// Fields read and write through their names (`core.exposure.targetBias = bias`), each
/// under the lock; a reading that needs several fields at once is a method of the concern
/// (`mode(after:)`), written with `withLock`. The lock is held only while the settings are
/// read or written, never while the backend, observers or user code run.
@dynamicMemberLookup
final class DeviceUnit<Settings: Sendable>: Sendable {
    private let settings: Mutex<Settings>

    init(_ initial: Settings) {
        settings = Mutex(initial)
    }

    subscript<Value: Sendable>(dynamicMember field: WritableKeyPath<Settings, Value>) -> Value {
        get { settings.withLock { $0[keyPath: field] } }
        set { settings.withLock { $0[keyPath: field] = newValue } }
    }

    subscript<Value: Sendable>(dynamicMember field: KeyPath<Settings, Value>) -> Value {
        settings.withLock { $0[keyPath: field] }
    }

    /// Reads or changes several fields at once.
    func withLock<Result: Sendable>(_ body: (inout Settings) -> Result) -> Result {
        settings.withLock { body(&$0) }
    }
}
