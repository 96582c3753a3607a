import Foundation

/// An observation made by `observe(_:options:changeHandler:)` (Apple's
/// `NSKeyValueObservation`). Keep it: the observation ends when it is invalidated or
/// released. It does not keep the observed object alive.
public final class NSKeyValueObservation: NSObject, @unchecked Sendable {
    private let registration: KeyValueRegistration?
    private weak var registry: KeyValueObserverRegistry?

    init(registration: KeyValueRegistration?, registry: KeyValueObserverRegistry?) {
        self.registration = registration
        self.registry = registry
        super.init()
    }

    /// Ends the observation: the handler is not called again once this returns (a call
    /// already running on another thread finishes). Calling it again does nothing.
    public func invalidate() {
        guard let registration else { return }
        if let registry {
            registry.remove(registration)
        } else {
            _ = registration.end()
        }
    }

    deinit { invalidate() }
}
