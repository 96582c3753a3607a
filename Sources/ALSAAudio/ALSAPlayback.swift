import CALSA
import Foundation
import Glibc

/// Plays interleaved 16-bit PCM through an ALSA playback PCM, `default` unless told
/// otherwise: the output of AudioToolbox's system sounds.
///
/// `play` blocks until the sound has been played out (`snd_pcm_drain`), so callers run it on
/// a thread of their own. The PCM is opened for each sound, so a card plugged in (or a sound
/// server started) later is used by the next one; `snd_pcm_set_params` lets ALSA's plug
/// layer convert the file's rate and channels to what the device takes.
package struct ALSAPlayback: Sendable {
    /// The outcome of one `play`.
    package enum Outcome: Sendable, Equatable {
        /// Every frame was written and drained.
        case played(frames: Int)
        /// The PCM did not open (no sound card, no sound server, the device busy): nothing to
        /// play to, as a phone with its sound muted.
        case noOutput(String)
        /// The PCM opened but refused the format or failed while playing.
        case failed(String)
    }

    /// The PCM to play to.
    package let pcmName: String
    /// An ALSA configuration file that defines `pcmName` instead of the system's
    /// configuration (alsa.conf, ~/.asoundrc): a test routes `default` through the `file`
    /// plug-in with it. Nil uses the system's, as every application does.
    package let configuration: URL?

    package init(pcmName: String = "default", configuration: URL? = nil) {
        self.pcmName = pcmName
        self.configuration = configuration
    }

    /// Plays `samples` (interleaved native-endian signed 16-bit, `channels` per frame) at
    /// `sampleRate` and returns when the PCM has played them out.
    package func play(_ samples: Data, sampleRate: Int, channels: Int) -> Outcome {
        guard sampleRate > 0, channels > 0 else { return .failed("no audio format") }
        // libasound prints a line per failed open of `default` on a machine without a card.
        return ALSALibraryErrors.quietly { playLoudly(samples, sampleRate: sampleRate, channels: channels) }
    }

    private func playLoudly(_ samples: Data, sampleRate: Int, channels: Int) -> Outcome {
        var local: OpaquePointer? = nil
        if let configuration {
            switch Self.load(configuration) {
            case .success(let tree): local = tree
            case .failure(let failure): return .noOutput(failure.description)
            }
        }
        defer { if let local { snd_config_delete(local) } }
        var handle: OpaquePointer?
        // Non-blocking open: a blocking one waits for a busy device to be released.
        let opened =
            local.map { snd_pcm_open_lconf(&handle, pcmName, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK, $0) }
            ?? snd_pcm_open(&handle, pcmName, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard opened == 0, let pcm = handle else { return .noOutput("\(pcmName): \(String(cString: snd_strerror(opened)))") }
        defer { snd_pcm_close(pcm) }
        snd_pcm_nonblock(pcm, 0)
        // 100 ms of latency: short enough for a shutter click to sound with the picture.
        let configured = snd_pcm_set_params(
            pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(channels), UInt32(sampleRate), 1, 100_000)
        guard configured == 0 else {
            return .failed("\(pcmName) refused \(sampleRate) Hz, \(channels) channels, S16_LE: \(String(cString: snd_strerror(configured)))")
        }
        let bytesPerFrame = channels * 2
        let frames = samples.count / bytesPerFrame
        let failure: String? = samples.withUnsafeBytes { bytes -> String? in
            guard let base = bytes.baseAddress else { return nil }
            var written = 0
            while written < frames {
                let result = snd_pcm_writei(pcm, base + written * bytesPerFrame, snd_pcm_uframes_t(frames - written))
                if result >= 0 {
                    written += result
                    continue
                }
                // An underrun (the thread was not scheduled in time) or a suspend: carry on.
                let recovered = snd_pcm_recover(pcm, Int32(result), 1)
                if recovered < 0 { return "\(pcmName): \(String(cString: snd_strerror(recovered)))" }
            }
            return nil
        }
        if let failure { return .failed(failure) }
        let drained = snd_pcm_drain(pcm)
        guard drained == 0 else { return .failed("\(pcmName): \(String(cString: snd_strerror(drained)))") }
        return .played(frames: frames)
    }

    /// Reads an ALSA configuration file into a tree for `snd_pcm_open_lconf`.
    private static func load(_ url: URL) -> Result<OpaquePointer, LoadFailure> {
        var top: OpaquePointer?
        guard snd_config_top(&top) == 0, let top else { return .failure(LoadFailure("out of memory")) }
        var input: OpaquePointer?
        let opened = snd_input_stdio_open(&input, url.path, "r")
        guard opened == 0, let input else {
            snd_config_delete(top)
            return .failure(LoadFailure("\(url.path): \(String(cString: snd_strerror(opened)))"))
        }
        let loaded = snd_config_load(top, input)
        snd_input_close(input)
        guard loaded == 0 else {
            snd_config_delete(top)
            return .failure(LoadFailure("\(url.path): \(String(cString: snd_strerror(loaded)))"))
        }
        return .success(top)
    }

    private struct LoadFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
