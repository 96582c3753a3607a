import Foundation
import MediaIO

/// Publishes the session's camera, and its microphone if it has one, as a live stream
/// (Linux addition; iOS has no such output): H.264 (libx264) or HEVC (libx265), tuned for
/// zero latency, with AAC audio, pushed to an RTSP server (ANNOUNCE/RECORD), an SRT peer
/// (caller or listener, MPEG-TS) or an RTMP server (FLV). WHIP is refused: Debian's FFmpeg
/// 5.1 has no whip muxer.
///
/// ```swift
/// let stream = AVCaptureStreamOutput()
/// session.addOutput(stream)          // connects the camera and the microphone
/// try stream.startStreaming(to: URL(string: "srt://10.0.0.2:9000")!)
/// ```
///
/// The stream connects when the first frame arrives (the frame's size is the stream's),
/// and every connection starts with a keyframe. When the peer goes away or cannot be
/// reached, the output retries with back-off (`reconnectDelay`, doubling up to
/// `maximumReconnectDelay`) until `stopStreaming()`; faults are reported, never raised.
/// The video connection's `videoRotationAngle` and `isVideoMirrored` apply to the pixels
/// (turned on the stream's thread), as a stream has no track matrix that every receiver
/// honours.
///
/// **Congestion.** Media wait in a bounded queue (`maximumQueuedFrames` frames, 32 audio
/// buffers) between the capture thread and the stream's own thread ("OpenCapture.stream"),
/// which encodes and sends. When the network falls behind, the oldest waiting media are
/// dropped, so capture never waits and latency stays bounded; `droppedFrameCount` and
/// `droppedAudioBufferCount` count them, and the delegate hears of them.
///
/// **Threads.** The delegate (`AVCaptureStreamOutputDelegate`) is called on its queue;
/// `stateDidChangeNotification` is posted on the main queue. Every property may be read
/// from any thread.
open class AVCaptureStreamOutput: AVCaptureOutput, @unchecked Sendable {
    /// Where a stream stands.
    public enum State: Int, Sendable, CustomStringConvertible {
        /// Not streaming: before `startStreaming(to:)` or after `stopStreaming()`.
        case idle = 0
        /// Waiting for the first frame, connecting, or (SRT listener) waiting for a caller.
        case connecting = 1
        /// Connected and sending.
        case streaming = 2
        /// The connection failed or was lost; the next attempt comes after the back-off.
        case reconnecting = 3
        /// Given up: the settings cannot be streamed (an encoder that cannot open, a codec
        /// the protocol cannot carry), or a failure while `reconnects` is false.
        case failed = 4

        public var description: String {
            switch self {
            case .idle: "idle"
            case .connecting: "connecting"
            case .streaming: "streaming"
            case .reconnecting: "reconnecting"
            case .failed: "failed"
            }
        }
    }

    /// Why a stream could not start, connect or go on.
    public struct StreamError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Code: Int, Sendable {
            /// The URL is malformed or its scheme is not rtsp, srt or rtmp (WHIP included).
            case invalidURL = 1
            /// The peer could not be reached, refused, or did not answer in time.
            case connectionFailed = 2
            /// The peer went away or stopped reading mid-stream.
            case connectionLost = 3
            /// The encoder or muxer refused the settings.
            case invalidSettings = 4
        }

        public let code: Code
        /// One line saying what went wrong.
        public let message: String
        public var description: String { message }

        public init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    /// Posted on the main queue when `state` changes; `object` is the output, userInfo holds
    /// `stateKey` (the new state's raw value) and, for a failure, `errorKey` (a `StreamError`).
    public static let stateDidChangeNotification = Notification.Name("AVCaptureStreamOutputStateDidChangeNotification")
    /// userInfo key of `stateDidChangeNotification`: the state's raw value (`Int`).
    public static let stateKey = "AVCaptureStreamOutputStateKey"
    /// userInfo key of `stateDidChangeNotification`: the `StreamError`, if any.
    public static let errorKey = "AVCaptureStreamOutputErrorKey"

    let publisher = StreamPublisher()

    public override init() {
        super.init()
        publisher.output = self
    }

    /// An output let go while streaming ends its stream (its thread would run on otherwise).
    deinit { publisher.stop() }

    // MARK: Settings (applied from the next connection)

    /// Codecs the output can stream: H.264, and HEVC where FFmpeg has libx265 (not over RTMP).
    open var availableVideoCodecTypes: [AVVideoCodecType] { MovieWriter.canEncodeHEVC ? [.h264, .hevc] : [.h264] }

    /// The video codec (default `.h264`). Setting one not in `availableVideoCodecTypes` raises
    /// `NSInvalidArgumentException`.
    open var videoCodecType: AVVideoCodecType {
        get { publisher.configuration.withLock { $0.hevc ? .hevc : .h264 } }
        set {
            enforce {
                guard availableVideoCodecTypes.contains(newValue) else {
                    throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureStreamOutput", "setVideoCodecType:", "Unsupported codec \(newValue.rawValue) - use availableVideoCodecTypes"))
                }
            }
            publisher.configuration.withLock { $0.hevc = newValue == .hevc }
        }
    }

    /// Average video bits per second (default 2 000 000); must be positive, else it raises.
    open var averageBitRate: Int {
        get { publisher.configuration.withLock { $0.bitRate } }
        set {
            enforce {
                guard newValue > 0 else {
                    throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureStreamOutput", "setAverageBitRate:", "The bit rate must be positive"))
                }
            }
            publisher.configuration.withLock { $0.bitRate = newValue }
        }
    }

    /// Seconds between keyframes (default 2); each connection also starts with one.
    open var keyframeInterval: TimeInterval {
        get { publisher.configuration.withLock { $0.keyframeInterval } }
        set { publisher.configuration.withLock { $0.keyframeInterval = newValue.isFinite && newValue > 0 ? newValue : 2 } }
    }

    /// Whether a failed or lost connection is retried (default true); false moves to `.failed`.
    open var reconnects: Bool {
        get { publisher.configuration.withLock { $0.reconnects } }
        set { publisher.configuration.withLock { $0.reconnects = newValue } }
    }

    /// The first back-off after a failure, in seconds (default 0.25); it doubles after each
    /// failed attempt up to `maximumReconnectDelay` (default 8), and starts over once connected.
    open var reconnectDelay: TimeInterval {
        get { publisher.configuration.withLock { $0.reconnectDelay } }
        set { publisher.configuration.withLock { $0.reconnectDelay = max(0.01, newValue.isFinite ? newValue : 0.25) } }
    }

    open var maximumReconnectDelay: TimeInterval {
        get { publisher.configuration.withLock { $0.maximumReconnectDelay } }
        set { publisher.configuration.withLock { $0.maximumReconnectDelay = max(0.01, newValue.isFinite ? newValue : 8) } }
    }

    /// Seconds one connection attempt may take (default 5); an SRT listener waits this long
    /// for its caller per attempt, then waits again.
    open var connectionTimeout: TimeInterval {
        get { publisher.configuration.withLock { $0.connectTimeout } }
        set { publisher.configuration.withLock { $0.connectTimeout = max(0.1, newValue.isFinite ? newValue : 5) } }
    }

    /// Video frames that may wait for the network (default 3, at least 1); beyond that the
    /// oldest is dropped.
    open var maximumQueuedFrames: Int {
        get { publisher.configuration.withLock { $0.maximumQueuedFrames } }
        set { publisher.configuration.withLock { $0.maximumQueuedFrames = max(1, newValue) } }
    }

    // MARK: Streaming

    /// Starts publishing to `url` (`rtsp://`, `srt://`, `rtmp://`); a stream in progress ends
    /// first. The connection is made on the stream's thread when the first frame arrives;
    /// its outcome comes as state changes.
    ///
    /// - Throws: `StreamError.invalidURL` for a malformed URL or an unsupported scheme (WHIP
    ///   among them: this FFmpeg has no whip muxer).
    open func startStreaming(to url: URL) throws(StreamError) {
        let target: StreamTarget
        do { target = try StreamTarget(url.absoluteString) } catch {
            throw StreamError(.invalidURL, Self.reason(error))
        }
        publisher.start(target)
    }

    /// Ends the stream (an RTSP peer is sent TEARDOWN) and returns once its thread has let
    /// go of the connection; the state becomes `.idle`.
    open func stopStreaming() { publisher.stop() }

    /// The URL being published to, or nil.
    open var streamURL: URL? { publisher.status.withLock { $0.target.flatMap { URL(string: $0.url) } } }
    /// Whether a stream is in progress (from `startStreaming` to `stopStreaming`), connected or not.
    open var isStreaming: Bool { publisher.status.withLock { $0.target != nil } }
    open var state: State { publisher.status.withLock { $0.state } }
    /// The last failure, kept until the next successful connection.
    open var lastError: StreamError? { publisher.status.withLock { $0.lastError } }

    /// Frames sent since `startStreaming` (all connections).
    open var sentFrameCount: Int { publisher.status.withLock { $0.framesSent } }
    /// Bytes of encoded media sent since `startStreaming`.
    open var sentByteCount: Int64 { publisher.status.withLock { $0.bytesSent } }
    /// Frames dropped from the queue because the network fell behind, since `startStreaming`.
    open var droppedFrameCount: Int { publisher.status.withLock { $0.droppedFrames } }
    /// Audio sample buffers dropped likewise.
    open var droppedAudioBufferCount: Int { publisher.status.withLock { $0.droppedAudioBuffers } }
    /// Connections made since `startStreaming` (1 after the first, 2 after a reconnect...).
    open var connectionCount: Int { publisher.status.withLock { $0.connections } }

    /// Sets the delegate and the queue it is called on; nil for both stops the calls.
    open func setDelegate(_ delegate: (any AVCaptureStreamOutputDelegate)?, queue: DispatchQueue?) {
        enforce {
            guard delegate == nil || queue != nil else {
                throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureStreamOutput", "setDelegate:queue:", "Cannot set a delegate without a queue"))
            }
        }
        publisher.delegate.withLock { $0 = delegate.map { StreamPublisher.DelegateLink(delegate: $0, queue: queue!) } }
    }

    /// The delegate, or nil.
    open var delegate: (any AVCaptureStreamOutputDelegate)? { publisher.delegate.withLock { $0?.delegate } }
    /// The delegate's queue, or nil.
    open var delegateQueue: DispatchQueue? { publisher.delegate.withLock { $0?.queue } }

    // MARK: Session graph

    override var acceptedMediaTypes: [AVMediaType] { [.video, .audio] }
    /// One camera and one microphone.
    override var takesOneConnectionPerMediaType: Bool { true }

    /// Called by the frame router with each frame while the session runs (capture thread).
    func consume(_ buffer: CVPixelBuffer, metadata: FrameMetadata, rotation: Int, mirrored: Bool) {
        publisher.enqueue(video: buffer, metadata: metadata, turn: StreamPublisher.Turn(rotation: rotation, mirrored: mirrored))
    }

    /// Called by the audio router with each microphone buffer (the microphone's thread).
    func consume(audio sampleBuffer: CMSampleBuffer) { publisher.enqueue(audio: sampleBuffer) }

    /// Whether the session's microphone feeds this output now.
    var hasLiveAudio: Bool {
        connections.contains { connection in connection.isEnabled && connection.inputPorts.contains { $0.mediaType == .audio } }
    }

    static func reason(_ error: MovieWriterError) -> String {
        switch error {
        case .invalidSettings(let reason), .cannotOpen(let reason), .io(let reason), .encoder(let reason): reason
        default: error.description
        }
    }
}
