import CaptureCore
import Synchronization

/// Turns queued `ControlRequest`s into V4L2 control writes on the capture thread, between
/// two dequeues, so a request's completion handler gets the timestamp of the first frame
/// dequeued after the driver took the new values.
///
/// Mapped today: exposure modes and custom exposure time (auto_exposure,
/// exposure_time_absolute in 100 µs) and the exposure bias (auto_exposure_bias, 0.001 EV),
/// where the device has those controls. Other requests are only stamped.
package final class V4L2ControlApplier: Sendable {
    private let pending = Mutex<[ControlRequest]>([])
    private let lastApplied = Atomic<UInt64>(0)
    private let exposureSeconds = Mutex<Double>(0)
    private let controls: [V4L2ControlInfo]

    package init(controls: [V4L2ControlInfo]) {
        self.controls = controls
    }

    package func enqueue(_ request: ControlRequest) {
        pending.withLock { $0.append(request) }
    }

    /// Applies everything queued; returns the id of the newest request applied so far.
    package func applyPending(on node: V4L2Node) -> UInt64 {
        let requests = pending.withLock { queue -> [ControlRequest] in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
        for request in requests {
            apply(request, on: node)
            lastApplied.store(request.id, ordering: .releasing)
        }
        return lastApplied.load(ordering: .acquiring)
    }

    /// Stamps what the controls say about exposure on a frame's metadata.
    package func describe(into metadata: inout FrameMetadata) {
        metadata.exposureDuration = exposureSeconds.withLock { $0 }
    }

    private func has(_ id: UInt32) -> Bool { controls.contains { $0.id == id } }

    private func apply(_ request: ControlRequest, on node: V4L2Node) {
        if let exposure = request.exposure, has(V4L2ControlID.autoExposure) {
            switch exposure {
            case .continuous, .autoOnce:
                let automatic: Int64 = menuHas(V4L2ControlID.autoExposure, 0) ? 0 : 3
                _ = try? node.setValue(automatic, of: V4L2ControlID.autoExposure)
            case .lockCurrent:
                let current = try? node.value(of: V4L2ControlID.exposureTimeAbsolute)
                _ = try? node.setValue(1, of: V4L2ControlID.autoExposure)
                if let current { _ = try? node.setValue(current, of: V4L2ControlID.exposureTimeAbsolute) }
            case .custom(let duration, _):
                _ = try? node.setValue(1, of: V4L2ControlID.autoExposure)
                if let duration, has(V4L2ControlID.exposureTimeAbsolute) {
                    let kept = try? node.setValue(Int64((duration * 10_000).rounded()), of: V4L2ControlID.exposureTimeAbsolute)
                    if let kept { exposureSeconds.withLock { $0 = Double(kept) / 10_000 } }
                }
            }
        }
        if let bias = request.exposureTargetBias, has(V4L2ControlID.autoExposureBias) {
            _ = try? node.setValue(Int64((bias * 1000).rounded()), of: V4L2ControlID.autoExposureBias)
        }
    }

    private func menuHas(_ id: UInt32, _ index: Int64) -> Bool {
        controls.first { $0.id == id }?.menu.contains { $0.index == index } ?? false
    }
}
