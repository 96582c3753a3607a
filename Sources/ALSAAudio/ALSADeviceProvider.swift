import CaptureCore
import Foundation
import Glibc
import Synchronization

/// The ALSA microphones: ALSA's `default` PCM first when it opens for capture, then the
/// cards' capture PCMs, found at the registry's first use and then followed through
/// hot-plug (inotify on /dev and /dev/snd, `ALSAHotplugMonitor`).
///
/// `default` is the microphone `AVCaptureDevice.default(for: .audio)` prefers
/// (`preferredDefaultMicrophoneID`). PCMs this process may not open (not in the `audio`
/// group) are the `.audio` inaccessible nodes.
package final class ALSADeviceProvider: DeviceProvider {
    private struct State {
        /// Every microphone made, for finding the ones whose node went away.
        var microphones: [ALSAMicrophone] = []
        var deniedPCMs: [String] = []
        var report: (@Sendable (DeviceChange) -> Void)?
    }

    private let state = Mutex(State())
    private let monitor = Mutex<ALSAHotplugMonitor?>(nil)

    package init() {}

    package func discover(reporting report: @escaping @Sendable (DeviceChange) -> Void) -> [any CaptureBackend] {
        let sound = ALSADiscovery.scan()
        let systemDefault = try? ALSADiscovery.scanDefault().get()
        let microphones = ([systemDefault].compactMap { $0 } + sound.devices).map(ALSAMicrophone.init)
        state.withLock {
            $0.microphones = microphones
            $0.deniedPCMs = Self.denied(sound.failures)
            $0.report = report
        }
        return microphones
    }

    package func startWatching() {
        monitor.withLock { monitor in
            guard monitor == nil else { return }
            monitor = ALSAHotplugMonitor { [weak self] in self?.soundCardsChanged() }
        }
    }

    package func inaccessibleNodes(_ media: DeviceMedia) -> [String] {
        media == .audio ? state.withLock { $0.deniedPCMs } : []
    }

    package var preferredDefaultMicrophoneID: String? { ALSAMicrophone.defaultUniqueID }

    private static func denied(_ failures: [ALSAProbeError]) -> [String] {
        failures.compactMap { if case .notAuthorized(let name) = $0 { name } else { nil } }
    }

    /// A capture node came or went: microphones whose node is gone are disconnected (a
    /// stream still running ends with `deviceWasDisconnected`), and new capture PCMs become
    /// devices; `default` is gone when it no longer opens (busy is still there) and comes
    /// when it opens again. Runs on the monitor's thread.
    private func soundCardsChanged() {
        let (known, report) = state.withLock { state in (state.microphones.filter(\.isConnected), state.report) }
        var removed: [any CaptureBackend] = []
        for microphone in known {
            if let node = microphone.nodePath {
                guard !FileManager.default.fileExists(atPath: node) else { continue }
            } else {
                switch ALSADiscovery.scanDefault() {
                case .success, .failure(.busy), .failure(.notAuthorized): continue
                case .failure(.failed): break
                }
            }
            microphone.markDisconnected()
            removed.append(microphone)
        }
        if !removed.isEmpty { report?(.removed(removed)) }
        // A new card's nodes may refuse opens until the driver and udev are done with it.
        for _ in 0..<20 {
            let scan = ALSADiscovery.scan()
            let hasDefault = isConnected(ALSAMicrophone.defaultUniqueID)
            let systemDefault = hasDefault ? nil : try? ALSADiscovery.scanDefault().get()
            var added: [any CaptureBackend] = []
            for found in [systemDefault].compactMap({ $0 }) + scan.devices where !isConnected(ALSAMicrophone.uniqueID(of: found)) {
                let microphone = ALSAMicrophone(found)
                state.withLock {
                    $0.microphones.removeAll { !$0.isConnected }
                    $0.microphones.append(microphone)
                }
                added.append(microphone)
            }
            if !added.isEmpty { report?(.added(added)) }
            let denied = Self.denied(scan.failures)
            state.withLock { $0.deniedPCMs = denied }
            guard !denied.isEmpty else { return }
            usleep(50_000)
        }
    }

    private func isConnected(_ uniqueID: String) -> Bool {
        state.withLock { $0.microphones.contains { $0.descriptor.uniqueID == uniqueID && $0.isConnected } }
    }
}
