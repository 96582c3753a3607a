import Foundation

/// What the session and its routers need from a place media goes: an output, or a preview
/// layer. They ask this protocol, never the concrete class, so a new kind of output is one
/// conformance (the `+Route.swift` files) and no change here, in `FrameRouter`,
/// `AudioRouter` or the session. Every requirement has a default that takes no part.
///
/// Threads: the frame requirements are called on the camera's capture thread, the audio
/// ones on the microphone's; they never call user code, and the frame ones never allocate.
/// The session requirements are called with the session's configuration lock held; work
/// that must wait for user code goes to `lock.afterUnlock`.
protocol RouteConsumer: AnyObject, Sendable {
    // MARK: Admission

    /// A kind a session holds one output of at most (nil: any number). Outputs that share
    /// a kind exclude each other.
    var soleKindInSession: String? { get }

    /// What this consumer asks of the camera's colour space when the session configures
    /// it for wide colour (`automaticallyConfiguresCaptureDeviceForWideColor`).
    var wideColorPreference: WideColorPreference { get }

    // MARK: Frames

    /// How this consumer takes a camera's frames through `connection`, or nil if it takes none.
    /// Asked when the route list is built (at each commit and start).
    func frameForm(for connection: AVCaptureConnection) -> FrameForm?

    /// Every frame of the camera, delivered or not, moves the consumer's clock (the
    /// virtual-time lockstep of a recording with its microphone).
    func frameClockDidTick(_ metadata: FrameMetadata)

    /// Whether the consumer takes frames now (asked each frame, after the connection's check).
    var acceptsFrames: Bool { get }

    /// A frame of an enabled connection.
    func take(_ frame: RoutedFrame)

    /// Frames the camera (or the route, out of buffers) lost, on an enabled connection.
    func framesWereDropped(count: Int, reason: DropReason, metadata: FrameMetadata)

    /// Blocks the capture thread until the consumer is ready for the next frame, or
    /// `giveUp` answers true (virtual time; a real-time camera never waits).
    func waitUntilReadyForFrame(unless giveUp: () -> Bool)

    /// A route list holding this consumer was published by a running `router`.
    func frameRouteDidPublish(by router: FrameRouter)

    /// The consumer's route left `router`'s list, or the router stopped (`routerStopped`).
    func frameRouteDidEnd(by router: FrameRouter, routerStopped: Bool)

    // MARK: Audio

    /// Every microphone buffer, delivered or not, moves the consumer's clock.
    func audioClockDidTick(_ sampleBuffer: CMSampleBuffer)

    /// Whether the audio router counts each buffer handed to this consumer as in flight
    /// until its `done` runs (one buffer in flight per delivering consumer).
    var countsAudioInFlight: Bool { get }

    /// A microphone buffer of an enabled connection; `done` (when the router counts this
    /// consumer's buffers) runs once it was handled or skipped.
    func take(audio sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection, done: (@Sendable () -> Void)?)

    /// How the consumer holds the microphone back now (virtual time).
    var audioPace: AudioPace { get }

    /// Blocks the microphone's thread until the consumer wants the next buffer, or `giveUp`.
    func waitForAudioTurn(unless giveUp: () -> Bool)

    /// A route list holding this consumer was published by an open audio router.
    func audioRouteDidPublish(by router: AudioRouter)

    /// The consumer's route left `router`'s list, or the router closed.
    func audioRouteDidEnd(by router: AudioRouter)

    // MARK: App metadata

    /// A timed metadata sample an `AVCaptureMetadataInput` appended, on an enabled connection,
    /// at `time` on the session's clock; `source` tells the inputs apart.
    func take(timedMetadata sample: Data, time: CMTime, source: ObjectIdentifier)

    // MARK: Session

    /// A run starts, or the consumer joined a running session: its delegate inbox opens.
    func openInbox()

    /// The run ends, or the consumer left the session: no more media reaches its delegate.
    /// Answers the wait for a delegate call in progress, which the caller runs once it let
    /// go of its locks (so that no media of the run reaches a delegate after it).
    func closeInbox() -> (() -> Void)?

    /// `startRunning()` returned from starting the devices (running or not).
    func sessionDidStart(releasing lock: ConfigurationLock)

    /// `stopRunning()` stopped the devices.
    func sessionDidStop(releasing lock: ConfigurationLock)

    /// The session runs with no transaction open: work that waited for that may go.
    func sessionDidSettle()

    /// A watch of the consumer's keys that follow the session's state, announced with the
    /// session's (nil: none).
    func watchKeysFollowingSession() -> KeyValueChange?
}

/// How a consumer takes a camera's frames.
enum FrameForm: Sendable {
    /// The camera's buffer itself; the consumer turns and mirrors it, or records how to.
    case asCaptured
    /// Turned, mirrored, converted and scaled by the router into the consumer's pools.
    case converted(FrameConversion)
}

/// What a converted route delivers: a pixel format and an optional smaller size.
struct FrameConversion: Sendable {
    let format: PixelFormat
    /// The size asked for (landscape or portrait as asked), nil for the frame's own.
    let requestedSize: (width: Int, height: Int)?
    /// Where converted frames come from (kept by the consumer across runs).
    let pools: OutputPools

    /// The size to scale frames of `width`×`height` (after rotation) to, nil to deliver them
    /// as they are.
    func scaledSize(forFrameWidth width: Int, height: Int) -> (width: Int, height: Int)? {
        Self.scaledSize(requestedSize, forFrameWidth: width, height: height)
    }

    /// `requested`, turned to the frames' orientation, when it is smaller with the same
    /// aspect ratio (after a format or rotation change it may no longer fit); else nil.
    static func scaledSize(_ requested: (width: Int, height: Int)?, forFrameWidth width: Int, height: Int) -> (width: Int, height: Int)? {
        guard var size = requested else { return nil }
        if (size.width > size.height) != (width > height), size.width != size.height { size = (size.height, size.width) }
        guard size != (width, height), AVCaptureVideoDataOutput.canScale(to: size, from: (width, height)) else { return nil }
        return size
    }
}

/// One frame on its way to one consumer. For a converted route the buffer is the
/// converted one, already turned and mirrored (`rotation` 0, `mirrored` false).
struct RoutedFrame {
    let buffer: CVPixelBuffer
    let metadata: FrameMetadata
    /// Clockwise degrees still to apply.
    let rotation: Int
    /// Whether a left-right flip is still to apply.
    let mirrored: Bool
    /// The converted buffer's description (nil for a buffer as captured).
    let formatDescription: CMFormatDescription?
    let connection: AVCaptureConnection
}

/// How a consumer holds a microphone back in virtual time.
enum AudioPace {
    /// It takes no part now.
    case none
    /// One buffer in flight: the microphone waits until it handled the last one.
    case oneInFlight
    /// It waits in `waitForAudioTurn` and never holds the microphone back otherwise.
    case own
}

extension RouteConsumer {
    var soleKindInSession: String? { nil }
    var wideColorPreference: WideColorPreference { .indifferent }
    func frameForm(for connection: AVCaptureConnection) -> FrameForm? { nil }
    func frameClockDidTick(_ metadata: FrameMetadata) {}
    var acceptsFrames: Bool { true }
    func take(_ frame: RoutedFrame) {}
    func framesWereDropped(count: Int, reason: DropReason, metadata: FrameMetadata) {}
    func waitUntilReadyForFrame(unless giveUp: () -> Bool) {}
    func frameRouteDidPublish(by router: FrameRouter) {}
    func frameRouteDidEnd(by router: FrameRouter, routerStopped: Bool) {}
    func audioClockDidTick(_ sampleBuffer: CMSampleBuffer) {}
    var countsAudioInFlight: Bool { false }
    func take(audio sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection, done: (@Sendable () -> Void)?) { done?() }
    var audioPace: AudioPace { .none }
    func waitForAudioTurn(unless giveUp: () -> Bool) {}
    func audioRouteDidPublish(by router: AudioRouter) {}
    func audioRouteDidEnd(by router: AudioRouter) {}
    func take(timedMetadata sample: Data, time: CMTime, source: ObjectIdentifier) {}
    func openInbox() {}
    func closeInbox() -> (() -> Void)? { nil }
    func sessionDidStart(releasing lock: ConfigurationLock) {}
    func sessionDidStop(releasing lock: ConfigurationLock) {}
    func sessionDidSettle() {}
    func watchKeysFollowingSession() -> KeyValueChange? { nil }
}

extension AVCaptureOutput {
    /// The output as the session and routers see it; nil for an output a session cannot take.
    var consumer: (any RouteConsumer)? { self as? any RouteConsumer }
}

extension AVCaptureConnection {
    /// Where the connection's media goes: its output, or its preview layer.
    var consumer: (any RouteConsumer)? { output?.consumer ?? videoPreviewLayer }
}
