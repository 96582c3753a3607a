import CaptureCore
import Dispatch
import Foundation
import ImageOps
import MediaIO

/// A video file played as a camera (Linux addition): a `CaptureBackend` whose frames are the
/// file's decoded frames, paced by the file's own timestamps and the deck's transport.
///
/// The deck keeps its place across streams (as a tape stays where it stopped): the first
/// stream starts at the first frame (the last when it plays backwards).
package final class FileDeckCamera: CaptureBackend, StillCapturing, @unchecked Sendable {
    package let url: URL
    package let track: MovieTrackInfo
    package let descriptor: DeviceDescriptor
    private let transportState = Mutex(DeckTransport())
    /// Signalled on every transport change and on stop, to cut a wait short.
    let wake = DispatchSemaphore(value: 0)
    /// The playhead: used only by the running stream's thread (one stream at a time).
    private let playhead: MoviePlayhead
    private let running = Mutex<DeckPlayback?>(nil)
    /// The newest frame delivered, for stills.
    private let newest = Mutex<(CVBuffer, FrameMetadata)?>(nil)
    private let stillQueue: DispatchQueue
    private let transportHandler = Mutex<(@Sendable (DeckTransport) -> Void)?>(nil)
    /// The highest control request seen (a deck has no controls; requests complete at once).
    private let requests = Mutex<UInt64>(0)

    /// Opens `url` and describes its first video track. Throws when the file is missing,
    /// unreadable, not a media file, has no video track or none FFmpeg decodes.
    package init(url: URL) throws(MovieReaderError) {
        let url = url.standardizedFileURL
        let reader = try MovieReader(url: url)
        guard let track = reader.tracks.first(where: { $0.kind == .video && $0.width > 0 && $0.height > 0 }) else {
            throw .cannotParse("\(url.lastPathComponent): no video track")
        }
        guard track.decodable else { throw .noDecoder(track.codecName) }
        try Self.check(track, name: url.lastPathComponent)
        self.url = url
        self.track = track
        let format: PixelFormat = track.fullRange ? .yuv420BiPlanarFullRange : .yuv420BiPlanarVideoRange
        // FFmpeg picks the decoding threads (frame threads on every core), as ffmpeg itself does.
        let playhead = try MoviePlayhead(url: url, track: track, pixelFormat: format, threads: 0)
        // Decode the first frame now: a file whose pictures cannot be decoded fails here, not mid-stream.
        guard (try playhead.step(forward: true)) != nil else { throw .decodeFailed("\(url.lastPathComponent): no decodable frame") }
        playhead.rewind()
        self.playhead = playhead
        descriptor = Self.describe(url: url, track: track, format: format)
        stillQueue = DispatchQueue(label: "OpenCapture.deck.stills.\(url.path)")
    }

    /// The frame rates a deck plays, frames per second: one a minute to a thousand a
    /// second, which covers every camera's (time-lapse to high-speed). A file's own rate
    /// outside them is damage or a trick (a 5000001 timescale with 2-tick frames claims
    /// 2,500,000.5 fps), not a camera's.
    package static let frameRates: ClosedRange<Double> = (1.0 / 60)...1000

    /// Refuses a track no camera could have made, before anything is decoded: pictures
    /// over `MovieReader.maximumPicturePixels` (a 95 KB file whose SPS claims 16000x16000
    /// took 3.8 GB), or a frame rate outside `frameRates`. A rate of 0 (unknown) plays at 30.
    static func check(_ track: MovieTrackInfo, name: String) throws(MovieReaderError) {
        let limit = MovieReader.maximumPicturePixels
        guard track.width * track.height <= limit else {
            throw .decodeFailed(
                "\(name): \(track.width)x\(track.height) pictures are more than a deck plays (at most \(limit) pixels, as 8192x4320)")
        }
        guard track.frameRate == 0 || frameRates.contains(track.frameRate) else {
            throw .cannotParse("\(name): a frame rate of \(track.frameRate) fps, which no camera has (a deck plays 1/60 to 1000 fps)")
        }
    }

    /// `file:` and the absolute path.
    package static func uniqueID(of url: URL) -> String { "file:" + url.standardizedFileURL.path }

    private static func describe(url: URL, track: MovieTrackInfo, format: PixelFormat) -> DeviceDescriptor {
        let rate = track.frameRate > 0 ? track.frameRate : 30
        var spec = DeviceFormatSpec(
            width: track.width, height: track.height, pixelFormat: format, frameRateRanges: [rate...rate], minISO: 100, maxISO: 100,
            minExposureDuration: 1 / rate, maxExposureDuration: 1 / rate, fieldOfView: 0, maxZoomFactor: 1)
        spec.autoFocusSystem = 0
        // One format serves every preset a V4L2 camera with that one mode would serve.
        var presets: [String: Int] = [
            "AVCaptureSessionPresetHigh": 0, "AVCaptureSessionPresetMedium": 0, "AVCaptureSessionPresetLow": 0,
            "AVCaptureSessionPresetPhoto": 0,
        ]
        let sized: [(String, Int, Int)] = [
            ("AVCaptureSessionPreset352x288", 352, 288), ("AVCaptureSessionPreset640x480", 640, 480),
            ("AVCaptureSessionPreset1280x720", 1280, 720), ("AVCaptureSessionPreset1920x1080", 1920, 1080),
            ("AVCaptureSessionPreset3840x2160", 3840, 2160), ("AVCaptureSessionPresetiFrame960x540", 960, 540),
            ("AVCaptureSessionPresetiFrame1280x720", 1280, 720),
        ]
        for (preset, width, height) in sized where width == track.width && height == track.height { presets[preset] = 0 }
        var descriptor = DeviceDescriptor(
            uniqueID: uniqueID(of: url), modelID: "OpenCapture File Deck", localizedName: url.lastPathComponent,
            manufacturer: "OpenCapture", position: 0, deviceType: "AVCaptureDeviceTypeExternal", formats: [spec],
            presetFormats: presets, defaultFormatIndex: 0, lensAperture: 0)
        descriptor.supportsExposureControl = false
        descriptor.supportsAutoTorch = false
        return descriptor
    }

    package var isConnected: Bool { true }

    // MARK: Transport

    /// The transport now.
    package var transport: DeckTransport { transportState.withLock { $0 } }

    /// Changes the transport; the playback thread applies it at its next frame boundary.
    package func setTransport(_ change: (inout DeckTransport) -> Void) {
        transportState.withLock { state in
            change(&state)
            state.generation &+= 1
        }
        wake.signal()
    }

    /// Sets what runs when the deck changes its own transport (it stops at an end of the
    /// file); called on the playback thread with the transport as it was before.
    package func onTransportChange(_ handler: @escaping @Sendable (DeckTransport) -> Void) {
        transportHandler.withLock { $0 = handler }
    }

    /// The playback thread reached an end and stops: not playing, speed 0.
    func stopAtEnd(generation: UInt64) {
        let old = transportState.withLock { state -> DeckTransport? in
            guard state.generation == generation else { return nil }
            let old = state
            state.playing = false
            state.speed = 0
            state.generation &+= 1
            return old
        }
        if let old { transportHandler.withLock { $0 }?(old) }
    }

    // MARK: Streaming

    package func start(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) {
        let playback = DeckPlayback(camera: self, playhead: playhead, configuration: configuration, sink: sink)
        running.withLock { $0 = playback }
        playback.launch()
    }

    package func update(_ configuration: StreamConfiguration) {
        running.withLock { $0 }?.update(configuration)
    }

    package func apply(_ request: ControlRequest) {
        requests.withLock { $0 = max($0, request.id) }
    }

    var appliedRequest: UInt64 { requests.withLock { $0 } }

    package func stop() {
        guard let playback = running.withLock({ running -> DeckPlayback? in
            defer { running = nil }
            return running
        }) else { return }
        playback.requestStop()
        wake.signal()
        playback.join()
    }

    func delivered(_ buffer: CVBuffer, metadata: FrameMetadata) {
        newest.withLock { $0 = (buffer, metadata) }
    }

    // MARK: Stills

    package var hasFlash: Bool { false }

    /// A deck's still is the frame on show at the call, so it needs no history of recent
    /// frames for zero shutter lag: there is none to keep.
    package func keepRecentFrames(_ keep: Bool, for owner: ObjectIdentifier) {}

    /// Always 0: a deck keeps no history (see `keepRecentFrames`).
    package var recentFrameBytes: Int { 0 }

    /// The frame on show (the newest delivered) as a still, converted to the request's
    /// format and size; fails before the first frame.
    package func captureStill(_ request: StillRequest, completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void) {
        let shown = newest.withLock { $0.map { UncheckedFrame(buffer: $0.0, metadata: $0.1) } }
        stillQueue.async {
            guard let shown else {
                completion(.failure(.streamFailed("the deck has shown no frame yet")))
                return
            }
            let source = shown.buffer
            var still = source
            if source.format != request.pixelFormat || source.width != request.width || source.height != request.height {
                let converted = CVBuffer(format: request.pixelFormat, width: source.width, height: source.height)
                guard ImageTransform.transform(source, into: converted, rotation: .none, mirrored: false) else {
                    completion(.failure(.streamFailed("the frame could not be converted")))
                    return
                }
                still = converted
                if source.width != request.width || source.height != request.height {
                    let scaled = CVBuffer(format: request.pixelFormat, width: request.width, height: request.height)
                    guard ImageTransform.scale(converted, into: scaled) else {
                        completion(.failure(.streamFailed("the frame could not be scaled")))
                        return
                    }
                    still = scaled
                }
            }
            completion(.success(StillCapture(buffer: still, metadata: shown.metadata, flashFired: false)))
        }
    }
}

/// A frame handed to the still queue (the buffer is not written again once delivered).
private struct UncheckedFrame: @unchecked Sendable {
    var buffer: CVBuffer
    var metadata: FrameMetadata
}
