import Foundation

/// Key-value observation of a discovery session's `devices` (Apple: "key-value observe
/// this property to monitor changes to the device list"), as react-native-vision-camera
/// does with `discoverySession.observe(\.devices, options: [.new])`.
///
/// Threads: a matching device appearing (hot-plug, a simulated camera's `reconnect()`)
/// or disappearing (unplug, `disconnect()`) notifies on the session's private serial
/// queue "OpenCapture.kvo.discoverySession", in order, never on the main thread and never
/// on the thread that found the change (the V4L2 or ALSA monitor, or the caller of
/// `disconnect()`). iOS likewise notifies on an internal AVFoundation queue, so handlers
/// that touch UI hop to the main queue themselves. A change that leaves the session's
/// list as it was (a device of another type or position) does not notify.
extension AVCaptureDevice.DiscoverySession: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { discoveryKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureDevice.DiscoverySession.self))

    /// Every observable key of a discovery session, with Apple's key string.
    static func observableKeys<Root: AVCaptureDevice.DiscoverySession>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.devices, "devices"),
            ObservableKey(\Root.supportedMultiCamDeviceSets, "supportedMultiCamDeviceSets"),
        ]
    }

    /// The device list may have changed: remembers it, and announces `devices` (and the
    /// multi-camera sets) on the change queue when observed and different.
    func deviceListChanged() {
        let old = announcedDevices.withLock { announced -> [AVCaptureDevice] in
            let old = announced
            announced = devices
            return old
        }
        let queue = keyValueObservers.changeQueue
        KeyValueChange.didChange(self, key: "devices", from: old, on: queue)
        KeyValueChange.didChange(self, key: "supportedMultiCamDeviceSets", from: Self.multiCamSets(of: old), on: queue)
    }

    /// `supportedMultiCamDeviceSets` for a given device list: pairs, less a virtual device
    /// with its own constituent and two cameras whose shared bus cannot carry both even at
    /// their cheapest formats (`AVCaptureMultiCamSession+BusBudget.swift`).
    static func multiCamSets(of found: [AVCaptureDevice]) -> [Set<AVCaptureDevice>] {
        let overlap = { (a: AVCaptureDevice, b: AVCaptureDevice) in
            a.constituentDevices.contains(b) || b.constituentDevices.contains(a)
        }
        let cheapest = found.map(\.cheapestBusUse)
        let overBudget = { (i: Int, j: Int) -> Bool in
            guard let a = cheapest[i], let b = cheapest[j], a.domain == b.domain else { return false }
            return a.bytesPerSecond + b.bytesPerSecond > a.budget
        }
        return found.indices.flatMap { i in
            found.indices.filter { $0 > i && !overlap(found[i], found[$0]) && !overBudget(i, $0) }.map { Set([found[i], found[$0]]) }
        }
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureDevice.DiscoverySession {
    /// Observes `devices` or `supportedMultiCamDeviceSets` (Apple's
    /// `observe(_:options:changeHandler:)`); see the threads above. The observation ends
    /// when the returned object is invalidated or released.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureDevice.DiscoverySession.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}

/// The live discovery sessions (weak), told when a device comes or goes.
final class DiscoverySessions: @unchecked Sendable {
    static let shared = DiscoverySessions()

    private struct Weak {
        weak var session: AVCaptureDevice.DiscoverySession?
    }

    private let sessions = Mutex<[Weak]>([])

    func add(_ session: AVCaptureDevice.DiscoverySession) {
        let now = session.devices
        session.announcedDevices.withLock { $0 = now }
        sessions.withLock { list in
            list.removeAll { $0.session == nil }
            list.append(Weak(session: session))
        }
    }

    /// A device was connected or disconnected: each live session re-reads its list.
    func devicesChanged() {
        let live = sessions.withLock { list in
            list.removeAll { $0.session == nil }
            return list.compactMap(\.session)
        }
        for session in live { session.deviceListChanged() }
    }
}
