import CaptureCore
import Foundation
import Glibc
import Synchronization

/// The V4L2 cameras: the video-capture nodes under /dev found at the registry's first use,
/// then followed through hot-plug (inotify on /dev, `V4L2HotplugMonitor`).
///
/// A node that vanishes disconnects its camera (`markDisconnected`, which the registry
/// hears through `DisconnectReporting`); a new node becomes a camera, retried for a second
/// while the driver and udev finish with it. Nodes this process may not open (EACCES,
/// EPERM: not in the `video` group) are the `.video` inaccessible nodes.
///
/// Media-controller nodes (`V4L2Capability.isMediaControllerCentric`: vimc's three capture
/// nodes, a Raspberry Pi's or IPU6 laptop's raw nodes) are left out when `leavesPipelineNodes`
/// says another backend (libcamera) lists those cameras, so each camera is listed once, by
/// the backend that configures its pipeline.
package final class V4L2DeviceProvider: DeviceProvider {
    private struct State {
        /// Every camera made, for finding the one behind a vanished node.
        var cameras: [V4L2Camera] = []
        var deniedPaths: [String] = []
        var report: (@Sendable (DeviceChange) -> Void)?
    }

    private let state = Mutex(State())
    private let monitor = Mutex<V4L2HotplugMonitor?>(nil)
    private let leavesPipelineNodes: @Sendable () -> Bool

    /// `leavesPipelineNodes` is asked (on the discovering or hot-plug thread) only when a
    /// media-controller node is found.
    package init(leavesPipelineNodes: @escaping @Sendable () -> Bool = { false }) {
        self.leavesPipelineNodes = leavesPipelineNodes
    }

    private func lists(_ camera: V4L2Camera) -> Bool {
        !camera.capability.isMediaControllerCentric || !leavesPipelineNodes()
    }

    /// `lists` for a camera plugged in now: its nodes appear before udev has handled them,
    /// and libcamera lists the camera only after (looking for up to three seconds), so a
    /// media-controller node is left out once libcamera lists a pipeline camera within
    /// four seconds.
    private func listsPluggedIn(_ camera: V4L2Camera) -> Bool {
        guard camera.capability.isMediaControllerCentric else { return true }
        for _ in 0..<40 {
            if leavesPipelineNodes() { return false }
            usleep(100_000)
        }
        return true
    }

    package func discover(reporting report: @escaping @Sendable (DeviceChange) -> Void) -> [any CaptureBackend] {
        var scan = V4L2Discovery.scan()
        scan.cameras = scan.cameras.filter(lists)
        state.withLock {
            $0.cameras = scan.cameras
            $0.deniedPaths = scan.deniedPaths
            $0.report = report
        }
        return scan.cameras
    }

    package func startWatching() {
        monitor.withLock { monitor in
            guard monitor == nil else { return }
            monitor = V4L2HotplugMonitor { [weak self] change in self?.handle(change) }
        }
    }

    package func inaccessibleNodes(_ media: DeviceMedia) -> [String] {
        media == .video ? state.withLock { $0.deniedPaths } : []
    }

    /// Runs on the monitor's thread.
    private func handle(_ change: V4L2HotplugMonitor.Change) {
        switch change {
        case .removed(let path):
            let gone = state.withLock { $0.cameras.filter { $0.path == path && $0.isConnected } }
            for camera in gone { camera.markDisconnected() }
        case .added(let path):
            let known = state.withLock { $0.cameras.contains { $0.path == path && $0.isConnected } }
            guard !known else { return }
            // A fresh node may refuse opens until the driver and udev are done with it.
            for _ in 0..<20 {
                do {
                    guard let camera = try V4L2Camera(path: path), listsPluggedIn(camera) else { return }
                    let report = state.withLock { state -> (@Sendable (DeviceChange) -> Void)? in
                        let id = camera.descriptor.uniqueID
                        guard !state.cameras.contains(where: { $0.descriptor.uniqueID == id && $0.isConnected }) else { return nil }
                        state.deniedPaths.removeAll { $0 == path }
                        state.cameras.removeAll { !$0.isConnected }
                        state.cameras.append(camera)
                        return state.report
                    }
                    report?(.added([camera]))
                    return
                } catch where error.code == EACCES || error.code == EPERM {
                    state.withLock { if !$0.deniedPaths.contains(path) { $0.deniedPaths.append(path) } }
                } catch {}
                usleep(50_000)
            }
        }
    }
}
