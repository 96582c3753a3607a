import Foundation
import Synchronization
@testable import OpenCapture

/// What an observer was told: one entry per call, with the queue it came on.
struct KVOCall: Sendable {
    var old: String?
    var new: String?
    var isPrior: Bool
    var queue: String
}

/// Collects the calls of a change handler, thread-safely.
final class KVORecorder: Sendable {
    private let log = Mutex<[KVOCall]>([])

    var calls: [KVOCall] { log.withLock { $0 } }

    func record<Value>(_ change: NSKeyValueObservedChange<Value>) {
        let call = KVOCall(old: change.oldValue.map { "\($0)" }, new: change.newValue.map { "\($0)" },
                           isPrior: change.isPrior, queue: currentQueueLabel())
        log.withLock { $0.append(call) }
    }

    func record(_ change: [NSKeyValueChangeKey: Any]?) {
        let call = KVOCall(old: change?[.oldKey].map { "\($0)" }, new: change?[.newKey].map { "\($0)" },
                           isPrior: (change?[.notificationIsPriorKey] as? NSNumber)?.boolValue ?? false,
                           queue: currentQueueLabel())
        log.withLock { $0.append(call) }
    }
}

/// The label of the KVO change queue the caller runs on, else "caller".
func currentQueueLabel() -> String {
    DispatchQueue.getSpecific(key: KeyValueObserverRegistry.queueLabelKey) ?? "caller"
}

/// A string-form observer, as iOS code writes one (less `override`: see `NSKeyValueObserving`).
final class StringObserver: NSObject, NSKeyValueObserving, @unchecked Sendable {
    let recorder = KVORecorder()
    let contexts = Mutex<[UnsafeMutableRawPointer?]>([])
    let keyPaths = Mutex<[String?]>([])

    func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
                      context: UnsafeMutableRawPointer?) {
        keyPaths.withLock { $0.append(keyPath) }
        contexts.withLock { $0.append(context) }
        recorder.record(change)
    }
}
