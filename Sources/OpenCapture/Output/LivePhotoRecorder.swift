import Foundation
import ImageOps
import MediaIO
import Synchronization

/// The Live Photo movies of one photo output.
///
/// While Live Photo capture is enabled (and not suspended) and the session runs, the frame
/// router offers it every frame of the output's camera on the capture thread: it keeps a
/// copy at `LivePhotoRecorder.movieSize` in a ring holding the last `preRoll` seconds, at
/// most `maximumFrameRate` frames a second (the ring's own buffers, reused once nothing
/// else holds them). A Live Photo capture takes the ring's frames at `capturePhoto` and
/// collects later ones until `postRoll` seconds after the still, then the movie is
/// encoded on a queue of its own ("OpenCapture.livePhoto") with MediaIO's `MovieWriter`
/// into a QuickTime file that carries the still's content identifier.
///
/// Memory: the ring holds at most `ringCapacity` frames (`ringBytes`, 46 × 2.3 MB = 107 MB
/// at the largest movie size, 1440x1080; 7 MB at 352x288); movies being collected hold
/// their frames until written. Disabling, suspending or the session stopping frees the ring.
final class LivePhotoRecorder: @unchecked Sendable {
    /// Seconds of movie before and after the still: about three seconds in all, centred on
    /// the capture, as Apple describes Live Photos.
    static let preRoll = 1.5
    static let postRoll = 1.5
    /// Movies take at most 30 frames a second; faster streams give every other frame or so.
    static let maximumFrameRate = 30.0
    /// The movie's long side is at most this (iPhones' Live Photo movies are 1440x1080 or
    /// 1920x1440); smaller streams keep their size.
    static let maximumLongSide = 1440
    /// The ring: `preRoll` seconds at `maximumFrameRate`, plus one.
    static let ringCapacity = Int((preRoll * maximumFrameRate).rounded(.up)) + 1

    /// One kept frame: the copy, its time, and a coarse picture of its luma for trimming.
    struct Frame: @unchecked Sendable {
        var buffer: CVBuffer
        let time: CMTime
        let zones: SIMD16<Float>
    }

    /// The size of the movie for frames `width` x `height`: the same, or scaled down to a
    /// long side of `maximumLongSide`, even sides.
    static func movieSize(width: Int, height: Int) -> CMVideoDimensions {
        let long = max(width, height)
        let scale = long > maximumLongSide ? Double(maximumLongSide) / Double(long) : 1
        func even(_ value: Int) -> Int32 { Int32(max(2, Int((Double(value) * scale / 2).rounded()) * 2)) }
        return CMVideoDimensions(width: even(width), height: even(height))
    }

    struct State {
        var active = false
        var ring: [Frame] = []
        var next = 0
        var movies: [LivePhotoMovie] = []
        var lastTime: CMTime = .invalid
        /// Buffers of frames that fell out of the ring, for the next copies.
        var spare: [CVBuffer] = []
        /// Sound (see `LivePhotoRecorder+Audio.swift`): whether a microphone feeds the output,
        /// the last `preRoll` seconds of its buffers and their track, movies whose frames
        /// are all in waiting for sound to reach their end, and the two media's times.
        var audioFed = false
        var audioRing: [CMSampleBuffer] = []
        var audioTrack: MovieAudioSettings?
        var awaitingAudio: [LivePhotoMovie] = []
        var videoTime: Double?
        var audioTime: Double?
        /// When (host clock, seconds) the newest microphone buffer arrived.
        var audioArrival: Double?
    }

    let state = Mutex(State())
    /// Wakes a microphone waiting for the camera (virtual time).
    let turn = NSCondition()
    private let active = Atomic<Bool>(false)
    /// Only the capture thread touches these.
    private var scratch: CVBuffer?
    private let writerQueue = DispatchQueue(label: "OpenCapture.livePhoto")

    /// Starts or stops keeping frames; stopping frees the ring and ends movies being
    /// collected now (trimmed to what they have).
    func setActive(_ on: Bool) {
        let ended = state.withLock { state -> [LivePhotoMovie] in
            state.active = on
            guard !on else { return [] }
            state.ring = []
            state.spare = []
            state.next = 0
            state.lastTime = .invalid
            state.audioRing = []
            state.videoTime = nil
            state.audioTime = nil
            state.audioArrival = nil
            defer {
                state.movies = []
                state.awaitingAudio = []
            }
            return state.movies + state.awaitingAudio
        }
        active.store(on, ordering: .releasing)
        wakeAudio()
        for movie in ended { write(movie) }
    }

    var isActive: Bool { active.load(ordering: .acquiring) }

    /// Bytes of pixels the ring (and its spare buffers) hold now: 4:2:0, 1.5 bytes a pixel.
    var ringBytes: Int {
        state.withLock { state in
            (state.ring.map(\.buffer) + state.spare).reduce(0) { $0 + $1.width * $1.height * 3 / 2 }
        }
    }

    // MARK: Capture thread

    /// Keeps a copy of `buffer` (on the capture thread; never blocks on user code).
    func offer(_ buffer: CVPixelBuffer, metadata: FrameMetadata, mirrored: Bool) {
        guard isActive else { return }
        let time = metadata.presentationTime
        let last = state.withLock { $0.lastTime }
        if last.isNumeric, CMTimeGetSeconds(CMTimeSubtract(time, last)) < 0.9 / Self.maximumFrameRate { return }
        let size = Self.movieSize(width: buffer.width, height: buffer.height)
        let format: PixelFormat = buffer.format == .yuv420BiPlanarVideoRange ? .yuv420BiPlanarVideoRange : .yuv420BiPlanarFullRange
        let reused = state.withLock { state -> CVBuffer? in
            guard let index = state.spare.indices.last else { return nil }
            let candidate = state.spare[index]
            guard candidate.format == format, candidate.width == Int(size.width), candidate.height == Int(size.height) else {
                state.spare.removeAll()
                return nil
            }
            return state.spare.removeLast()
        }
        let copy = reused ?? CVBuffer(format: format, width: Int(size.width), height: Int(size.height))
        guard copyFrame(buffer, into: copy, mirrored: mirrored) else { return }
        let frame = Frame(buffer: copy, time: time, zones: Self.zones(of: copy))
        let finished = state.withLock { state -> [LivePhotoMovie] in
            guard state.active else { return [] }
            state.lastTime = time
            if state.ring.count < Self.ringCapacity {
                state.ring.append(frame)
            } else {
                var dropped = state.ring[state.next]
                state.ring[state.next] = frame
                state.next = (state.next + 1) % Self.ringCapacity
                // Reused only once no movie (nor anyone else) holds it.
                if isKnownUniquelyReferenced(&dropped.buffer), state.spare.count < 2 { state.spare.append(dropped.buffer) }
            }
            state.videoTime = time.seconds
            var done: [LivePhotoMovie] = []
            state.movies.removeAll { movie in
                movie.frames.append(frame)
                guard movie.isComplete(at: time) else { return false }
                done.append(movie)
                return true
            }
            return Self.readyToWrite(done, &state) + Self.overdue(&state)
        }
        wakeAudio()
        for movie in finished { write(movie) }
    }

    private func copyFrame(_ source: CVBuffer, into destination: CVBuffer, mirrored: Bool) -> Bool {
        if source.width == destination.width, source.height == destination.height {
            return ImageTransform.transform(source, into: destination, rotation: .none, mirrored: mirrored)
        }
        // Scaled in the source's format first, then converted (and mirrored) into the copy.
        if scratch?.format != source.format || scratch?.width != destination.width || scratch?.height != destination.height {
            scratch = CVBuffer(format: source.format, width: destination.width, height: destination.height)
        }
        guard let scratch, ImageTransform.scale(source, into: scratch) else { return false }
        return ImageTransform.transform(scratch, into: destination, rotation: .none, mirrored: mirrored)
    }

    /// Mean luma of a 4x4 grid, sampled every 8th pixel of every 8th row.
    static func zones(of buffer: CVBuffer) -> SIMD16<Float> {
        var sums = SIMD16<Float>(repeating: 0), counts = SIMD16<Float>(repeating: 0)
        let luma = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
        let stride = buffer.bytesPerRow(0)
        for y in Swift.stride(from: 0, to: buffer.height, by: 8) {
            let row = min(3, y * 4 / buffer.height) * 4
            for x in Swift.stride(from: 0, to: buffer.width, by: 8) {
                let zone = row + min(3, x * 4 / buffer.width)
                sums[zone] += Float(luma[y * stride + x])
                counts[zone] += 1
            }
        }
        return sums / counts.replacing(with: 1, where: counts .== 0)
    }

    // MARK: Movies

    /// Starts a movie for a capture made now: the ring's frames so far, and later ones.
    func begin(_ movie: LivePhotoMovie) -> Bool {
        state.withLock { state in
            guard state.active else { return false }
            let ordered = state.ring.count < Self.ringCapacity ? state.ring : Array(state.ring[state.next...] + state.ring[..<state.next])
            movie.frames = ordered
            // With a microphone the movie takes its sound, even if none has come yet.
            movie.wantsSound = state.audioFed
            if state.audioFed, let track = state.audioTrack {
                movie.audioTrack = track
                movie.audio = state.audioRing
            }
            state.movies.append(movie)
            return true
        }
    }

    /// The still of `movie` was taken at `time`: it ends `postRoll` seconds later.
    func setStillTime(_ time: CMTime, of movie: LivePhotoMovie) {
        let done = state.withLock { state -> Bool in
            movie.stillTime = time
            guard let last = movie.frames.last, movie.isComplete(at: last.time),
                let index = state.movies.firstIndex(where: { $0 === movie })
            else { return false }
            state.movies.remove(at: index)
            return !Self.readyToWrite([movie], &state).isEmpty
        }
        if done { write(movie) }
    }

    /// Ends movies being collected now, trimmed to what they have (suspension).
    func trimMoviesInProgress() {
        let ended = state.withLock { state -> [LivePhotoMovie] in
            defer {
                state.movies = []
                state.awaitingAudio = []
            }
            return state.movies + state.awaitingAudio
        }
        for movie in ended { write(movie) }
    }

    /// Gives up a movie whose still failed: no file is written.
    func cancel(_ movie: LivePhotoMovie, error: any Error) {
        let removed = state.withLock { state -> Bool in
            guard let index = state.movies.firstIndex(where: { $0 === movie }) else { return false }
            state.movies.remove(at: index)
            return true
        }
        if removed { movie.fail(error) }
    }

    func write(_ movie: LivePhotoMovie) {
        movie.recorded.leave()
        writerQueue.async { movie.writeFile() }
    }
}
