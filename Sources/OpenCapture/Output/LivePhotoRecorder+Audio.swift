import Foundation
import MediaIO

/// The sound of Live Photo movies: with a microphone connected to the session (the photo
/// output's audio connection, as on iOS), the recorder keeps the last `preRoll` seconds of
/// its linear PCM buffers beside the frames, a movie takes them at `capturePhoto` and later
/// ones until its last frame, and the movie gets an AAC track (64 kbit/s per channel, the
/// microphone's rate and channels).
///
/// Threads: buffers arrive on the microphone's capture thread (`offerAudio`). A movie whose
/// frames are all in waits (in `awaitingAudio`) until sound reaches its end; the microphone
/// never waits for it, so nothing blocks. In virtual time the microphone waits for the
/// camera instead (`waitForAudioTurn`): it may not run more than `audioSlack` ahead of the
/// newest frame, so the sound and the frames stay on one timeline.
extension LivePhotoRecorder {
    /// How far (seconds) sound may run ahead of the frames in virtual time; more than a
    /// frame, so a movie waiting for sound up to its last frame gets it.
    static let audioSlack = 0.1

    /// A microphone starts or stops feeding the output; when it stops, movies waiting for
    /// its sound are written with what they have.
    func setAudioFeed(_ fed: Bool) {
        let waiting = state.withLock { state -> [LivePhotoMovie] in
            state.audioFed = fed
            guard !fed else { return [] }
            state.audioRing = []
            state.audioTime = nil
            state.audioArrival = nil
            defer { state.awaitingAudio = [] }
            return state.awaitingAudio
        }
        wakeAudio()
        for movie in waiting { write(movie) }
    }

    /// Keeps a microphone buffer (its capture thread): in the ring, and in the movies being
    /// collected or waiting for sound; writes those whose sound is complete.
    func offerAudio(_ sampleBuffer: CMSampleBuffer) {
        guard isActive, let asbd = sampleBuffer.formatDescription?.audioStreamBasicDescription, asbd.mFormatID == kAudioFormatLinearPCM,
            asbd.mSampleRate > 0, asbd.mChannelsPerFrame > 0, sampleBuffer.presentationTimeStamp.isNumeric
        else { return }
        let start = sampleBuffer.presentationTimeStamp.seconds
        let end = start + Double(sampleBuffer.numSamples) / asbd.mSampleRate
        let track = MovieAudioSettings(
            codec: .aac(bitRate: 64_000 * Int(asbd.mChannelsPerFrame)), sampleRate: Int(asbd.mSampleRate.rounded()),
            channels: Int(asbd.mChannelsPerFrame))
        let complete = state.withLock { state -> [LivePhotoMovie] in
            guard state.active, state.audioFed else { return [] }
            if state.audioTrack != track {
                // Another format: the ring's sound cannot go into one track with it.
                state.audioRing = []
                state.audioTrack = track
            }
            state.audioTime = end
            state.audioArrival = Self.hostSeconds()
            state.audioRing.append(sampleBuffer)
            state.audioRing.removeAll { buffer in
                buffer.presentationTimeStamp.seconds < end - Self.preRoll - Self.audioSlack
            }
            for movie in state.movies + state.awaitingAudio where movie.wantsSound {
                // The first sound a movie gets sets its track; sound of another format is left out.
                if movie.audioTrack == nil { movie.audioTrack = track }
                if movie.audioTrack == track { movie.audio.append(sampleBuffer) }
            }
            var done: [LivePhotoMovie] = []
            state.awaitingAudio.removeAll { movie in
                guard movie.hasSound(until: end) else { return false }
                done.append(movie)
                return true
            }
            return done
        }
        for movie in complete { write(movie) }
    }

    /// Of movies whose frames are all in, those to write now; the others (sound still to
    /// come) wait in `awaitingAudio`. Under the state lock.
    static func readyToWrite(_ movies: [LivePhotoMovie], _ state: inout State) -> [LivePhotoMovie] {
        var ready: [LivePhotoMovie] = []
        for movie in movies {
            if state.audioFed, movie.wantsSound, isSoundFlowing(state), !movie.hasSound(until: state.audioTime ?? -.infinity) {
                state.awaitingAudio.append(movie)
            } else {
                ready.append(movie)
            }
        }
        return ready
    }

    /// How long (seconds on the host clock) sound may stop coming (a disabled audio
    /// connection, a stalled microphone) before movies waiting for it are written with what
    /// they have. Host time, not media time: in virtual time the camera may run seconds of
    /// frames ahead of a microphone that is merely slower (a loaded machine), and its sound
    /// still comes.
    static let soundPatience = 1.0

    static func hostSeconds() -> Double { CMClockGetTime(CMClockGetHostTimeClock()).seconds }

    /// Whether sound is arriving: its newest buffer came within `soundPatience`.
    static func isSoundFlowing(_ state: State) -> Bool {
        guard let arrival = state.audioArrival else { return false }
        return hostSeconds() - arrival < soundPatience
    }

    /// Movies waiting for sound when none has come for `soundPatience`: written as they
    /// are. Under the state lock, on each frame.
    static func overdue(_ state: inout State) -> [LivePhotoMovie] {
        guard !state.awaitingAudio.isEmpty, !isSoundFlowing(state) else { return [] }
        defer { state.awaitingAudio = [] }
        return state.awaitingAudio
    }

    /// Virtual time, on the microphone's capture thread: blocks while the sound is more than
    /// `audioSlack` ahead of the newest frame; returns at once when `giveUp` holds.
    func waitForAudioTurn(unless giveUp: () -> Bool) {
        turn.lock()
        defer { turn.unlock() }
        while !giveUp() && isAudioAhead {
            _ = turn.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
    }

    private var isAudioAhead: Bool {
        state.withLock { state in
            guard state.active, state.audioFed, let audio = state.audioTime else { return false }
            // Sound waits for the camera's first frame, as a movie output's does.
            guard let video = state.videoTime else { return true }
            return audio > video + Self.audioSlack
        }
    }

    func wakeAudio() {
        turn.lock()
        turn.broadcast()
        turn.unlock()
    }
}

extension LivePhotoMovie {
    /// Whether sound up to `audioTime` covers the movie's last frame.
    func hasSound(until audioTime: Double) -> Bool {
        guard let last = frames.last else { return true }
        return audioTime >= last.time.seconds + 1 / LivePhotoRecorder.maximumFrameRate
    }
}
