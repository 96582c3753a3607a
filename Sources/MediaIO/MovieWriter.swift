import CFFmpeg
import CaptureCore
import Foundation

/// Records pixel buffers to an H.264 MP4 file: the engine of `AVCaptureMovieFileOutput`.
///
/// Encoding is libx264 through libavcodec: preset 'veryfast', High profile without
/// B-frames, NV12 input, BT.709 colour tagged with the range asked for, and either an
/// average bit rate or constant quality (CRF 23) under a ceiling (see `MovieEncoder`).
/// Muxing is libavformat's mp4 muxer (see `MovieMuxer`).
///
/// **Crash safety.** With a positive `fragmentInterval` the file is a fragmented MP4. At
/// every multiple of `fragmentInterval` seconds of media a keyframe is forced, and when its
/// packet leaves the encoder the fragment before it is written and handed to the kernel. A
/// process killed at any moment (even by SIGKILL) leaves a file that plays up to its last
/// complete fragment; what the encoder and the current fragment held is lost: at most one
/// interval plus the encoder's delay (14 frames on two cores: look-ahead and frame threads).
/// `finish` writes the rest and an `mfra` index. Unfragmented files play only once finished.
///
/// **Time.** Presentation times are made relative to the first frame, which starts at 0, and
/// stored at 1/90000 s. Each frame lasts until the next frame's time; the last frame lasts
/// one nominal frame (`1 / frameRate`).
///
/// **Rotation** is metadata: the track's display matrix tells players to turn the picture
/// `rotationDegrees` clockwise; the pixels are stored as captured. FFmpeg reads the matrix
/// back as a counterclockwise angle: ffprobe shows `rotation: -90` for 90 degrees clockwise.
///
/// **Speed**, 1920x1080 NV12, release build, two cores shared with other work: 85-110
/// frames/s (9-12 ms of CPU a frame) for camera-like pictures; 35 frames/s (29 ms) for a
/// picture of strong fresh noise in every frame at the bit-rate ceiling.
///
/// Not thread-safe: call it from one thread at a time (the movie output uses one serial
/// queue). It is `Sendable` only so that it can be handed to that queue.
package final class MovieWriter: @unchecked Sendable {
    /// Units per second of the times stored in the file.
    static let timescale: Int32 = 90_000

    private enum State {
        case writing
        case finished
        case failed(MovieWriterError)
    }

    package let url: URL
    package let width: Int
    package let height: Int
    private let encoder: MovieEncoder
    private let muxer: MovieMuxer
    private var plan: MovieFragmentPlan
    private var durations: MovieFrameDurations
    private var state = State.writing
    /// The first frame's presentation time, subtracted from every frame's.
    private var origin: CMTime?
    /// The last frame's time in `timescale` units, -1 before the first frame.
    private var lastTime: Int64 = -1

    /// Frames accepted by `append`. The last few may still be in the encoder, and those of
    /// the current fragment in memory, until the fragment is cut or the writer finishes.
    package private(set) var framesWritten = 0

    /// Creates the file (which must not exist) and writes the movie's header.
    ///
    /// - Parameters:
    ///   - width: frame width in pixels; even, as 4:2:0 H.264 requires.
    ///   - height: frame height in pixels; even.
    ///   - frameRate: nominal frames per second, for rate control and the last frame's duration.
    ///   - fragmentInterval: seconds of media per fragment; 0 or less writes an unfragmented
    ///     file that is playable only after `finish`.
    ///   - rotationDegrees: clockwise rotation players apply: 0, 90, 180 or 270 (or those
    ///     plus a multiple of 360).
    ///   - fullRange: store full-range (0-255) samples instead of video range (16-235).
    ///   - bitRate: average bits per second, or `nil` for constant quality.
    ///   - displayP3: tag the stream with Display P3 primaries (the frames are P3_D65).
    ///   - ycbcrBT601: the frames are Y'CbCr made with the BT.601 matrix (a V4L2 camera's);
    ///     the stream says so instead of BT.709.
    ///   - hevc: encode HEVC (libx265, tagged 'hvc1') instead of H.264.
    ///   - tenBit: with `hevc`, encode HEVC Main 10 from 10-bit samples ('x420'/'xf20'
    ///     buffers keep all their bits); H.264 stays 8-bit (10-bit frames are narrowed).
    ///   - hlg: tag the stream BT.2100 HLG: BT.2020 primaries and matrix, ARIB STD-B67
    ///     transfer (the frames are HLG_BT2020).
    package init(
        url: URL, width: Int, height: Int, frameRate: Double, fragmentInterval: Double = 10,
        rotationDegrees: Int = 0, fullRange: Bool = false, bitRate: Int? = nil, displayP3: Bool = false, ycbcrBT601: Bool = false,
        hevc: Bool = false, tenBit: Bool = false, hlg: Bool = false
    ) throws(MovieWriterError) {
        try FFmpegLibraries.load()
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
            throw .invalidSettings("\(width)x\(height): 4:2:0 H.264 needs even, positive dimensions")
        }
        guard frameRate.isFinite, frameRate > 0 else { throw .invalidSettings("frame rate \(frameRate)") }
        guard fragmentInterval.isFinite else { throw .invalidSettings("fragment interval \(fragmentInterval)") }
        let rotation = (rotationDegrees % 360 + 360) % 360
        guard rotation % 90 == 0 else { throw .invalidSettings("rotation \(rotationDegrees) is not a multiple of 90") }
        if let bitRate, bitRate <= 0 { throw .invalidSettings("bit rate \(bitRate)") }

        let frameTicks = max(Int64((Double(Self.timescale) / frameRate).rounded()), 1)
        let intervalTicks = fragmentInterval > 0 ? max(Int64((fragmentInterval * Double(Self.timescale)).rounded()), 1) : 0
        // Our forced keyframes come every interval; x264's own limit is only a safety net.
        let keyframeSeconds = intervalTicks > 0 ? 2 * fragmentInterval : 10
        let settings = MovieEncoder.Settings(
            width: width, height: height, frameRate: frameRate, fullRange: fullRange, bitRate: bitRate,
            maximumKeyframeInterval: Int((keyframeSeconds * frameRate).rounded(.up)), preset: MovieEncoder.defaultPreset,
            displayP3: displayP3, ycbcrBT601: ycbcrBT601, hevc: hevc, tenBit: tenBit && hevc, hlg: hlg)

        self.url = url
        self.width = width
        self.height = height
        plan = MovieFragmentPlan(interval: intervalTicks, frameDuration: frameTicks)
        durations = MovieFrameDurations(nominal: frameTicks)
        encoder = try MovieEncoder(settings: settings, globalHeader: true)
        muxer = try MovieMuxer(url: url, fragmented: intervalTicks > 0)
        do {
            try muxer.start(rotationDegrees: rotation, frameRate: av_d2q(frameRate, 1_001_000)) {
                parameters throws(MovieWriterError) in try encoder.copyParameters(to: parameters)
            }
        } catch {
            // A file without a usable header is of no use to anyone.
            muxer.release(keepingFile: false)
            throw error
        }
    }

    /// Encodes a frame.
    ///
    /// - Parameter presentationTime: the frame's time on any clock; the first frame's time
    ///   becomes 0 and each later one must be later than the one before (after rounding to
    ///   1/90000 s).
    /// - Throws: `.frameSizeMismatch` or `.invalidTimestamp` for a frame that was skipped (the
    ///   writer goes on); anything else means the writer has failed: later calls throw the
    ///   same error, and the file keeps every fragment completed before the failure.
    package func append(_ buffer: CVPixelBuffer, presentationTime: CMTime) throws(MovieWriterError) {
        switch state {
        case .writing: break
        case .finished: throw .notWriting
        case .failed(let error): throw error
        }
        guard buffer.width == width, buffer.height == height else { throw .frameSizeMismatch }
        guard presentationTime.isNumeric else { throw .invalidTimestamp }
        let start = origin ?? presentationTime
        let relative = CMTimeSubtract(presentationTime, start).convertScale(Self.timescale, method: .roundHalfAwayFromZero)
        guard relative.isNumeric, relative.value > lastTime else { throw .invalidTimestamp }
        origin = start
        let time = relative.value
        let keyframe = plan.forcesKeyframe(at: time)
        durations.submit(time)
        do {
            try encoder.encode(buffer, time: time, keyframe: keyframe) { packet throws(MovieWriterError) in
                try write(packet)
            }
        } catch {
            fail(error)
            throw error
        }
        lastTime = time
        framesWritten += 1
    }

    /// Encodes the frames still in the encoder, writes the last fragment and the index, and
    /// closes the file. Calling it again does nothing; after a failure it throws that failure.
    package func finish() throws(MovieWriterError) {
        switch state {
        case .writing: break
        case .finished: return
        case .failed(let error): throw error
        }
        do {
            try encoder.flush { packet throws(MovieWriterError) in try write(packet) }
            try muxer.finish()
        } catch {
            fail(error)
            throw error
        }
        state = .finished
    }

    /// The media recorded so far: last time - first time + one nominal frame; 0 before any frame.
    package var recordedDuration: CMTime {
        guard framesWritten > 0 else { return .zero }
        return CMTime(value: lastTime + durations.nominal, timescale: Self.timescale)
    }

    /// Bytes recorded so far: the file's size plus the encoded samples of the current
    /// fragment, which reach the file when the fragment is cut. The file's exact size
    /// once finished.
    package var recordedFileSize: Int64 { muxer.recordedSize }

    /// Fragments written to the file so far (0 when not fragmented, until `finish`).
    package var fragmentsWritten: Int { muxer.fragmentCount }

    /// Gives a packet its duration, cuts the fragment before a forced keyframe, and muxes it.
    private func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(MovieWriterError) {
        let time = packet.pointee.pts
        packet.pointee.duration = durations.take(time)
        let isKeyframe = packet.pointee.flags & AV_PKT_FLAG_KEY != 0
        if plan.startsFragment(time: time, isKeyframe: isKeyframe) { try muxer.cutFragment() }
        try muxer.write(packet)
    }

    /// Stops for good: closes the file as it stands, keeping the fragments already written.
    private func fail(_ error: MovieWriterError) {
        state = .failed(error)
        muxer.release(keepingFile: true)
    }
}

extension MovieWriter {
    /// Whether `hevc: true` can work here: FFmpeg has libx265.
    package static var canEncodeHEVC: Bool { MovieEncoder.canEncodeHEVC }
}
