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
/// it as `current` (`withCurrent`); the AVFoundation API looks devices up in `current`.
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
    }

    private let state = Mutex(State())

    /// A registry of `providers`' devices, in that order.
    package init(providers: [any DeviceProvider]) {
        for provider in providers { register(provider) }
    }

    /// Adds a provider after the ones there: its devices are discovered now and appended,
    /// and it is watched from the next use. This is how a backend outside OpenCapture
    /// plugs in (`DeviceRegistry.shared.register(MyProvider())`).
    package func register(_ provider: any DeviceProvider) {
        let found = provider.discover { [weak self] change in self?.handle(change) }
        let devices = found.map(makeDevice)
        state.withLock {
            $0.providers.append(provider)
            $0.devices += devices
        }
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
        return state.withLock { state in
            state.onDemand.first { $0.uniqueID == uniqueID }
                ?? state.devices.first { $0.uniqueID == uniqueID && $0.isConnected }
        }
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
        let fresh = makeDevice(backend)
        replaceOrAppend(fresh)
        return fresh
    }

    /// A device object for a backend, wired to announce what the backend reports itself:
    /// its disconnection (`DisconnectReporting`) and its own transport changes (`TransportControlling`).
    private func makeDevice(_ backend: any CaptureBackend) -> AVCaptureDevice {
        let device = AVCaptureDevice(core: DeviceCore(backend: backend))
        if let reporting = backend as? any DisconnectReporting {
            reporting.onDisconnect { [weak device] in
                guard let device else { return }
                Self.announceRemoval([device])
            }
        }
        if let transport = backend as? any TransportControlling { device.followTransportChanges(of: transport) }
        return device
    }

    private func replaceOrAppend(_ fresh: AVCaptureDevice) {
        state.withLock { state in
            if let index = state.devices.firstIndex(where: { $0.uniqueID == fresh.uniqueID && !$0.isConnected }) {
                state.devices[index] = fresh
            } else {
                state.devices.append(fresh)
            }
        }
    }

    // MARK: Hot-plug

    private func startWatching() {
        for provider in providers { provider.startWatching() }
    }

    /// A provider's report, on its thread.
    private func handle(_ change: DeviceChange) {
        switch change {
        case .added(let backends):
            var added: [AVCaptureDevice] = []
            for backend in backends where device(uniqueID: backend.descriptor.uniqueID) == nil {
                let device = makeDevice(backend)
                replaceOrAppend(device)
                added.append(device)
            }
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
