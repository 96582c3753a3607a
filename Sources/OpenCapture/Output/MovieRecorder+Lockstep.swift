import Foundation
import Synchronization

/// The feeds of a `MovieRecorder` and the virtual-time lockstep: which routers feed it
/// frames and sound, how far each capture thread has come, and the waits that keep the
/// camera and the microphone within `lockstepSlack` of each other while the recording
/// queue keeps up (`waitUntilDrained` on the camera's thread, `waitForAudioTurn` on the
/// microphone's). The recorder's `room` condition wakes them.
extension MovieRecorder {
    /// The newest times each capture thread has reached, for the virtual-time lockstep, and
    /// the routers feeding this recorder now.
    struct Feeds {
        var video: Set<ObjectIdentifier> = []
        var audio: Set<ObjectIdentifier> = []
        /// The newest frame's presentation time, seconds.
        var videoTime: Double?
        /// The end of the newest audio buffer, seconds.
        var audioTime: Double?
    }

    func wakeWaiters() {
        room.lock()
        room.broadcast()
        room.unlock()
    }

    /// A router starts (`true`) or stops feeding this recorder frames (`audio` false) or sound.
    func setFeed(_ router: AnyObject, audio: Bool, attached: Bool) {
        let id = ObjectIdentifier(router)
        feeds.withLock { feeds in
            if audio {
                if attached { feeds.audio.insert(id) } else { feeds.audio.remove(id) }
            } else {
                if attached { feeds.video.insert(id) } else { feeds.video.remove(id) }
            }
        }
        wakeWaiters()
        // No more sound will come for a recording waiting for its sound to end.
        guard audio, !attached else { return }
        queue.async { [self] in
            guard let recording = current, recording.isEnding, feeds.withLock({ $0.audio.isEmpty }) else { return }
            finish(recording, error: recording.endingError)
        }
    }

    /// The camera reached `time`: called for every frame, recorded or not.
    func noteVideoTime(_ time: CMTime) {
        guard time.isNumeric else { return }
        let wake = feeds.withLock { feeds -> Bool in
            feeds.videoTime = time.seconds
            return !feeds.audio.isEmpty
        }
        if wake { wakeWaiters() }
    }

    /// The microphone reached the end of `sampleBuffer`: called for every buffer.
    func noteAudioTime(_ sampleBuffer: CMSampleBuffer) {
        let time = sampleBuffer.presentationTimeStamp
        guard time.isNumeric, let rate = sampleBuffer.formatDescription?.audioStreamBasicDescription?.mSampleRate, rate > 0 else { return }
        let end = time.seconds + Double(sampleBuffer.numSamples) / rate
        let wake = feeds.withLock { feeds -> Bool in
            feeds.audioTime = end
            return !feeds.video.isEmpty
        }
        if wake { wakeWaiters() }
    }

    /// Whether the camera is more than `lockstepSlack` ahead of a microphone also feeding us
    /// (`video`), or the microphone ahead of a camera (`!video`).
    private func isAhead(video: Bool) -> Bool {
        feeds.withLock { feeds in
            guard !(video ? feeds.audio : feeds.video).isEmpty else { return false }
            // Sound waits for the camera's first frame (a camera takes longer to start); the
            // camera never waits for a first buffer, so the two never wait for each other.
            guard let videoTime = feeds.videoTime else { return !video }
            guard let audioTime = feeds.audioTime else { return false }
            return video ? videoTime > audioTime + Self.lockstepSlack : audioTime > videoTime + Self.lockstepSlack
        }
    }

    /// Virtual time, on the microphone's capture thread: blocks until the writer has taken the
    /// queued audio and the microphone is not ahead of the camera; returns at once when
    /// `giveUp` holds (the stream is stopping).
    func waitForAudioTurn(unless giveUp: () -> Bool) {
        room.lock()
        defer { room.unlock() }
        while !giveUp() && (status.withLock({ $0.isRecording && $0.sound.queued > 0 }) || isAhead(video: false)) {
            _ = room.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
    }

    /// Virtual time: blocks until the writer has taken every queued frame, so a recording
    /// made faster than real time loses none, and while a microphone feeds this output too,
    /// until its sound has caught up with the camera. Returns at once when neither holds, and
    /// when `giveUp` holds (the stream is stopping: the queue may be in a delegate call).
    func waitUntilDrained(unless giveUp: () -> Bool = { false }) {
        room.lock()
        defer { room.unlock() }
        while !giveUp() && (status.withLock({ $0.isRecording && $0.frames.queued > 0 }) || isAhead(video: true)) {
            _ = room.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
    }
}
