import CaptureCore
import ColorScience
import Synchronization

/// Controls a running stream reads at each frame boundary, written from any thread.
///
/// The camera's setters write here; the capture thread takes a snapshot once per
/// frame, so a change lands exactly at a frame boundary. The object lives as long as the
/// camera, so what is here (illuminant, white-balance state, queued requests) carries over
/// from one stream to the next.
final class StreamControls: Sendable {
    struct Values: Sendable {
        /// cd/m² of the scene's diffuse white.
        var luminanceScale: Float = 200
        /// Digital zoom, ≥ 1.
        var zoomFactor: Double = 1
        /// A configuration waiting for the next frame boundary.
        var pendingConfiguration: StreamConfiguration?
        /// The light on the scene.
        var illuminant = StreamControls.defaultIlluminant
        /// What the scene shows, and its scripted changes.
        var content = SceneContent.chart
        var timeline = SceneTimeline()
        /// Cards placed in front of the content (`ScenePicture`).
        var pictures: [ScenePicture] = []
        /// Displays showing each frame's presentation time (`TimeCodeStamp`).
        var timeCodes: [TimeCodeStamp] = []
        /// Whether frames carry their raw Bayer mosaic (`RawMosaic`).
        var rawMosaic = false
        /// A virtual device's constituent held whatever the zoom (switching locked), or nil
        /// to follow the zoom across the switch-over factors.
        var pinnedConstituent: Int?
        /// Hand tremor (`CameraShake`): peak amplitude as a fraction of the frame width at
        /// zoom 1; 0 films from a tripod.
        var shakeAmplitude = 0.0
    }

    /// 6500 K on the Planckian locus (tint 0): daylight, a little pinker than D65 (tint +9.8).
    static let defaultIlluminant = TemperatureTint(temperature: 6500, tint: 0)

    private struct Shared {
        var values = Values()
        /// Illuminant changes waiting for their frame, in the order scheduled.
        var schedule: [(frame: Int64, illuminant: TemperatureTint)] = []
        /// Control requests waiting for a frame boundary, in arrival order.
        var requests: [ControlRequest] = []
        /// White balance as the last frame left it.
        var whiteBalance = AutoWhiteBalance.Memory()
        /// Exposure mode and settings as the last frame left them.
        var exposure = AutoExposure.Memory()
        /// The highest request id applied so far.
        var appliedRequest: UInt64 = 0
    }

    private let shared = Mutex(Shared())

    /// A copy of the current values; takes the pending configuration if `takingPending`.
    func snapshot(takingPending: Bool) -> Values {
        shared.withLock { current in
            let copy = current.values
            if takingPending { current.values.pendingConfiguration = nil }
            return copy
        }
    }

    func modify(_ change: (inout Values) -> Void) {
        shared.withLock { change(&$0.values) }
    }

    /// Changes the illuminant when frame `frame` of a stream begins (of the running stream,
    /// or of the next one if none runs; a frame already passed means the next frame).
    func schedule(_ illuminant: TemperatureTint, atFrame frame: Int64) {
        shared.withLock { $0.schedule.append((frame, illuminant)) }
    }

    /// Queues a control request for the next frame boundary.
    func enqueue(_ request: ControlRequest) {
        shared.withLock { $0.requests.append(request) }
    }

    /// At the start of frame `frame`: applies the scheduled illuminant changes that are due,
    /// moves the pending requests into `requests` (which should be empty; its storage is
    /// swapped, so nothing is allocated) and returns the values, taking the pending
    /// configuration.
    func beginFrame(_ frame: Int64, requests: inout [ControlRequest]) -> Values {
        shared.withLock { current in
            // Schedules are short: a scan keeps the order they were set in.
            while let next = current.schedule.firstIndex(where: { $0.frame <= frame }) {
                current.values.illuminant = current.schedule[next].illuminant
                current.schedule.remove(at: next)
            }
            if !current.requests.isEmpty { swap(&requests, &current.requests) }
            let copy = current.values
            current.values.pendingConfiguration = nil
            return copy
        }
    }

    /// White balance as it was left, and the highest request id applied.
    var whiteBalance: (memory: AutoWhiteBalance.Memory, appliedRequest: UInt64) {
        shared.withLock { ($0.whiteBalance, $0.appliedRequest) }
    }

    /// Records white balance after a frame.
    func storeWhiteBalance(_ memory: AutoWhiteBalance.Memory, appliedRequest: UInt64) {
        shared.withLock {
            $0.whiteBalance = memory
            $0.appliedRequest = max($0.appliedRequest, appliedRequest)
        }
    }

    /// Exposure mode and settings as they were left.
    var exposure: AutoExposure.Memory {
        shared.withLock { $0.exposure }
    }

    /// Records the exposure mode and settings after a frame.
    func storeExposure(_ memory: AutoExposure.Memory) {
        shared.withLock { $0.exposure = memory }
    }
}
