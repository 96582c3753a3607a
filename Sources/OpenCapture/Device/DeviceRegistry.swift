import Foundation
import Synchronization

/// Every device a process (or a test) knows, one `AVCaptureDevice` per unique ID, from an
/// ordered list of `DeviceProvider`s: it names no backend.
///
/// The list is the providers' devices in provider order (for `shared`, the built-in ones of
/// `BuiltInBackends/BuiltInProviders.swift`: simulated cameras, the simulated microphone,
/// V4L2 cameras, ALSA microphones), found when the registry is made; hot-plugged devices
/// take the place of a disconnected one with the same unique ID or go at the end.
/// Hot-plug is followed from the first use (`startWatching` on every provider). Devices a
/// provider makes on demand (file decks, `device(opening:)`) are found by unique ID only.
///
/// A test that needs devices of its own makes a registry (`init(providers:)`) and runs with
/// it as `current` (`withCurrent`); the AVFoundation API looks devices up in `current`. A
/// device knows the registry that made it (`AVCaptureDevice.registry`), so what it finds
/// itself (its constituents, its reconnection) stays there on any thread.
package final class DeviceRegistry: Sendable {
    /// The process's registry: the built-in providers, then any `register(_:)`ed.
    package static let shared = DeviceRegistry(providers: builtInProviders())

    /// A registry installed for the running task and its child tasks (`withCurrent`).
    @TaskLocal private static var installed: DeviceRegistry?

    /// The registry the API looks devices up in: the task's, else `shared`.
    package static var current: DeviceRegistry { installed ?? shared }

    private struct State {
        var providers: [any DeviceProvider] = []
        var devices: [AVCaptureDevice] = []
        /// Made by a provider on demand (not discovered, found by unique ID).
        var onDemand: [AVCaptureDevice] = []
        /// Whether the registry has been used (hot-plug watched): from then on a provider
        /// registered late has its devices announced.
        var isInUse = false

        /// The connected or on-demand device with `uniqueID`.
        func device(uniqueID: String) -> AVCaptureDevice? {
            onDemand.first { $0.uniqueID == uniqueID } ?? devices.first { $0.uniqueID == uniqueID && $0.isConnected }
        }

        /// Lists a device that came (hot-plugged, re-made) in place of a disconnected one with
        /// its unique ID, else at the end; false, and nothing changes, when a device with that
        /// unique ID is there already.
        mutating func insert(_ fresh: AVCaptureDevice) -> Bool {
            guard device(uniqueID: fresh.uniqueID) == nil else { return false }
            if let index = devices.firstIndex(where: { $0.uniqueID == fresh.uniqueID && !$0.isConnected }) {
                devices[index] = fresh
            } else {
                devices.append(fresh)
            }
            return true
        }
    }

    private let state = Mutex(State())

    /// A registry of `providers`' devices, in that order.
    package init(providers: [any DeviceProvider]) {
        for provider in providers { register(provider) }
    }

    /// Adds a provider after the ones there: its devices are discovered now and appended,
    /// and it is watched from the next use. After the registry's first use they are
    /// announced as hot-plugged ones are (`announceArrival`). A backend in another module
    /// of this package (a plug-in library target) plugs in with
    /// `DeviceRegistry.shared.register(MyProvider())` from its own public entry point; code
    /// outside the package cannot, as this type and `DeviceProvider` are `package`.
    package func register(_ provider: any DeviceProvider) {
        let found = provider.discover { [weak self] change in self?.handle(change) }
        let devices = found.map(makeDevice)
        let inUse = state.withLock {
            $0.providers.append(provider)
            $0.devices += devices
            return $0.isInUse
        }
        if inUse { Self.announceArrival(devices) }
    }

    /// Runs `body` with this registry as `current` (for its task and child tasks).
    package func withCurrent<R>(_ body: () throws -> R) rethrows -> R {
        try Self.$installed.withValue(self, operation: body)
    }

    /// Runs `body` with this registry as `current` (for its task and child tasks).
    package func withCurrent<R>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        try await Self.$installed.withValue(self, operation: body)
    }

    private var providers: [any DeviceProvider] { state.withLock { $0.providers } }

    /// Connected devices, in registry order.
    package var connected: [AVCaptureDevice] {
        startWatching()
        return state.withLock { $0.devices }.filter(\.isConnected)
    }

    /// What `AVCaptureDevice.default(for: .audio)` is without a preferred input: the
    /// microphone a provider prefers (ALSA's `default` PCM, the system's choice, through
    /// PipeWire or PulseAudio where they run) when it is connected, else the first one.
    package var defaultMicrophone: AVCaptureDevice? {
        let preferred = providers.compactMap(\.preferredDefaultMicrophoneID)
        let microphones = connected.filter { $0.hasMediaType(.audio) }
        return microphones.first { preferred.contains($0.uniqueID) } ?? microphones.first
    }

    /// Video device nodes that exist but that this process may not open.
    package var inaccessibleNodes: [String] { providers.flatMap { $0.inaccessibleNodes(.video) } }
    /// Audio capture PCMs that exist but that this process may not open.
    package var inaccessibleSoundPCMs: [String] { providers.flatMap { $0.inaccessibleNodes(.audio) } }

    package func device(uniqueID: String) -> AVCaptureDevice? {
        startWatching()
        return state.withLock { $0.device(uniqueID: uniqueID) }
    }

    /// The device a provider makes for `url` (the file deck), the same one on every call
    /// for the same URL; nil when no provider opens URLs. Errors are the provider's.
    package func device(opening url: URL) throws -> AVCaptureDevice? {
        for provider in providers {
            guard let backend = try provider.open(url) else { continue }
            if let known = state.withLock({ $0.onDemand.first { $0.backend === backend } }) { return known }
            let device = makeDevice(backend)
            return state.withLock { state in
                if let raced = state.onDemand.first(where: { $0.backend === backend }) { return raced }
                state.onDemand.append(device)
                return device
            }
        }
        return nil
    }

    /// Replaces a disconnected device by a new device object with the same unique ID, as a
    /// re-plugged camera appears on iOS, when its provider can re-make it (simulated cameras).
    package func reconnect(_ old: AVCaptureDevice) -> AVCaptureDevice? {
        guard !old.isConnected, let backend = providers.lazy.compactMap({ $0.reconnect(old.backend) }).first else { return nil }
        let fresh = unwiredDevice(backend)
        guard state.withLock({ $0.insert(fresh) }) else { return nil }
        wire(fresh)
        return fresh
    }

    /// A device object for a backend, wired to announce what the backend reports itself:
    /// its disconnection (`DisconnectReporting`) and its own transport changes (`TransportControlling`).
    private func makeDevice(_ backend: any CaptureBackend) -> AVCaptureDevice {
        let device = unwiredDevice(backend)
        wire(device)
        return device
    }

    /// A device object of this registry for a backend, not yet wired: made outside the
    /// lock, wired once it is kept (a duplicate must not take the backend's handler).
    private func unwiredDevice(_ backend: any CaptureBackend) -> AVCaptureDevice {
        AVCaptureDevice(core: DeviceCore(backend: backend, registry: self))
    }

    private func wire(_ device: AVCaptureDevice) {
        let backend = device.backend
        if let reporting = backend as? any DisconnectReporting {
            reporting.onDisconnect { [weak device] in
                guard let device else { return }
                Self.announceRemoval([device])
            }
        }
        if let transport = backend as? any TransportControlling { device.followTransportChanges(of: transport) }
    }

    // MARK: Hot-plug

    private func startWatching() {
        let providers = state.withLock { state in
            state.isInUse = true
            return state.providers
        }
        for provider in providers { provider.startWatching() }
    }

    /// A provider's report, on its thread. Looks up without `startWatching` (the provider
    /// is inside its own callback), and checks and inserts under one lock so that two
    /// reports of one device at once add it once; the kept devices are wired after.
    private func handle(_ change: DeviceChange) {
        switch change {
        case .added(let backends):
            let made = backends.map(unwiredDevice)
            let added = state.withLock { state in
                made.filter { state.insert($0) }
            }
            added.forEach(wire)
            Self.announceArrival(added)
        case .removed(let backends):
            let gone = state.withLock { state in
                backends.compactMap { backend in state.devices.first { $0.backend === backend } }
            }
            Self.announceRemoval(gone)
        }
    }

    /// Tells the app devices came: cameras through the class properties and discovery
    /// sessions, microphones through discovery sessions and `AVAudioSession`'s route.
    package static func announceArrival(_ devices: [AVCaptureDevice]) {
        for device in devices where !device.hasMediaType(.audio) {
            DeviceClassProperties.shared.camerasChanged()
            postOnMainQueue(AVCaptureDevice.wasConnectedNotification, object: device)
        }
        let microphones = devices.filter { $0.hasMediaType(.audio) }
        for device in microphones { postOnMainQueue(AVCaptureDevice.wasConnectedNotification, object: device) }
        guard !microphones.isEmpty else { return }
        DiscoverySessions.shared.devicesChanged()
        AVAudioSession.sharedInstance().microphonesChanged(added: microphones, removed: [])
    }

    /// Tells the app devices went (`isConnected` already false): KVO of `connected`,
    /// `wasDisconnectedNotification`, and as `announceArrival` for the lists. The simulated
    /// devices' `disconnect()` calls it with the caller's handle.
    package static func announceRemoval(_ devices: [AVCaptureDevice]) {
        for device in devices {
            device.announceDisconnect()
            if !device.hasMediaType(.audio) { DeviceClassProperties.shared.camerasChanged() }
            postOnMainQueue(AVCaptureDevice.wasDisconnectedNotification, object: device)
        }
        let microphones = devices.filter { $0.hasMediaType(.audio) }
        guard !microphones.isEmpty else { return }
        DiscoverySessions.shared.devicesChanged()
        AVAudioSession.sharedInstance().microphonesChanged(added: [], removed: microphones)
    }
}

extension AVCaptureDevice {
    /// The registry that made the device, where it finds its constituents and is re-made
    /// from any thread (a task-local `current` is `shared` on a capture, KVO or provider
    /// thread); `current` for a device no registry made.
    package var registry: DeviceRegistry { core.registry ?? .current }
}
