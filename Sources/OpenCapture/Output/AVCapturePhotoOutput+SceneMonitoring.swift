import Foundation
import Synchronization

extension AVCapturePhotoOutput {
    var photoSettingsForSceneMonitoringBacking: AVCapturePhotoSettings? {
        get { settingsState.withLock { $0.sceneMonitoringSettings } }
        set {
            let change = KeyValueChange.willChange(self, keys: ["photoSettingsForSceneMonitoring"])
            let scene = KeyValueChange.watch(self, keys: ["isFlashScene"])
            let settings = UncheckedSendable(newValue)
            settingsState.withLock { $0.sceneMonitoringSettings = settings.value }
            change?.didChange()
            scene?.didChange()
        }
    }

    var isFlashSceneBacking: Bool {
        guard photoSettingsForSceneMonitoring?.flashMode == .auto, let device, device.hasFlash,
            let session, session.isRunning
        else { return false }
        return device.lastFrameMetadata.iso >= PhotoCapture.autoFlashISO
    }

    var isStillImageStabilizationSceneBacking: Bool { false }
}

/// The photo outputs connected to one camera (weak), which every frame tells so their
/// `isFlashScene` observers hear of changes. Costs a frame one atomic load while none of
/// them is observed.
final class SceneMonitors: @unchecked Sendable {
    private let outputs = Mutex<[Weak]>([])
    private let count = Atomic<Int>(0)

    private struct Weak {
        weak var output: AVCapturePhotoOutput?
    }

    func add(_ output: AVCapturePhotoOutput) {
        let total = outputs.withLock { list in
            list.removeAll { $0.output == nil || $0.output === output }
            list.append(Weak(output: output))
            return list.count
        }
        count.store(total, ordering: .releasing)
    }

    /// Watches of `isFlashScene` on observed outputs, taken before a frame's metadata is stored.
    func watch() -> [KeyValueChange] {
        guard count.load(ordering: .acquiring) > 0 else { return [] }
        let live = outputs.withLock { $0.compactMap(\.output) }
        return live.compactMap { KeyValueChange.watch($0, keys: ["isFlashScene"]) }
    }
}
