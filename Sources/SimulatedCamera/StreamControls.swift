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
        /// What the last frame left and acknowledged.
        var acknowledged = Acknowledged()
    }

    /// The 3A state a stream leaves for the next one, with the id of the last request it
    /// applied: the camera's record of what it acknowledged (`FrameMetadata.appliedRequest`),
    /// stored once per frame. Requested values that were not acknowledged are still in
    /// `requests`; the device keeps only what it asked for, until a frame acknowledges it.
    struct Acknowledged: Sendable {
        var whiteBalance = AutoWhiteBalance.Memory()
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

    /// White balance and exposure as they were left, and the highest request id applied.
    var acknowledged: Acknowledged {
        shared.withLock { $0.acknowledged }
    }

    /// Records what a frame left (its request id only ever rises).
    func acknowledge(_ state: Acknowledged) {
        shared.withLock {
            let applied = max($0.acknowledged.appliedRequest, state.appliedRequest)
            $0.acknowledged = state
            $0.acknowledged.appliedRequest = applied
        }
    }
}
