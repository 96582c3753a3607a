import CALSA
import Foundation
import TestSupport

@testable import OpenCapture

/// The sound cards of the test VM (`scripts/vivid-vm` loads snd-aloop as card 0 and
/// snd-dummy as card 1 and sets OPENCAPTURE_SOUND=1); elsewhere these suites are skipped.
enum SoundCards {
    static let arePresent = ProcessInfo.processInfo.environment["OPENCAPTURE_SOUND"] == "1"

    /// Runs a VM helper (sound-plug, sound-unplug) with popen, as the vivid tests do (Foundation's
    /// Process cannot wait for a child in the VM's minimal userland).
    @discardableResult
    static func run(_ command: String) -> String {
        let (output, status) = ShellCommand.run(command)
        return output + (status == 0 ? "" : " (status \(status))")
    }}

/// Plays a sine into an ALSA playback PCM on a thread of its own until stopped: 16-bit mono.
final class TonePlayer: @unchecked Sendable {
    private let stopping = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)
    let error = Mutex<String?>(nil)

    init(pcm name: String, frequency: Double, amplitude: Double, rate: UInt32 = 48_000) {
        let thread = Thread { [self] in
            defer { finished.signal() }
            var handle: OpaquePointer?
            guard snd_pcm_open(&handle, name, SND_PCM_STREAM_PLAYBACK, 0) == 0, let pcm = handle else {
                error.withLock { $0 = "cannot open \(name)" }
                return
            }
            defer { snd_pcm_close(pcm) }
            // 1024-frame periods, 4 of them, as the capture side asks (snd-aloop makes both agree).
            let set = snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, rate, 1, 85_333)
            guard set == 0 else {
                error.withLock { $0 = "snd_pcm_set_params: \(String(cString: snd_strerror(set)))" }
                return
            }
            var index = 0
            var chunk = [Int16](repeating: 0, count: 1024)
            while !stopping.withLock({ $0 }) {
                for i in 0..<chunk.count {
                    chunk[i] = Int16((amplitude * 32767 * sin(2 * Double.pi * frequency * Double(index + i) / Double(rate))).rounded())
                }
                index += chunk.count
                let written = chunk.withUnsafeBytes { snd_pcm_writei(pcm, $0.baseAddress, snd_pcm_uframes_t(1024)) }
                if written < 0 { snd_pcm_recover(pcm, Int32(written), 1) }
            }
        }
        thread.name = "test.tone-player"
        thread.start()
    }

    func stop() {
        stopping.withLock { $0 = true }
        finished.wait()
    }
}

/// Collects an audio data output's buffers.
final class AudioCollector: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "test.audio-collector")
    private let state = Mutex<[CMSampleBuffer]>([])
    var buffers: [CMSampleBuffer] { state.withLock { $0 } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        state.withLock { $0.append(sampleBuffer) }
    }
}

/// Waits for a notification posted while or after `body` runs.
func waitForSoundNotification(
    _ name: Notification.Name, object: AnyObject? = nil, timeout: Double = 20, during body: () -> Void
) -> Notification? {
    let received = Mutex<ReceivedNote?>(nil)
    let observer = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { note in
        received.withLock { if $0 == nil { $0 = ReceivedNote(note: note) } }
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    body()
    _ = waitUntil(within: .seconds(timeout)) { received.withLock { $0 != nil } }
    return received.withLock { $0?.note }
}

/// Notifications are not Sendable; this one is only read after the poster is done with it.
private struct ReceivedNote: @unchecked Sendable {
    let note: Notification
}

/// The 16-bit samples of interleaved mono buffers.
func monoSamples(_ buffers: [CMSampleBuffer]) -> [Int16] {
    buffers.flatMap { buffer -> [Int16] in
        guard let data = buffer.dataBuffer else { return [] }
        var samples = [Int16](repeating: 0, count: data.dataLength / 2)
        _ = samples.withUnsafeMutableBytes { CMBlockBufferCopyDataBytes(data, atOffset: 0, dataLength: $0.count, destination: $0.baseAddress!) }
        return samples
    }
}

/// The power of `frequency` in `samples` (Goertzel), as the amplitude of a sine.
func toneAmplitude(_ samples: [Int16], frequency: Double, rate: Double) -> Double {
    let coefficient = 2 * cos(2 * Double.pi * frequency / rate)
    var s1 = 0.0
    var s2 = 0.0
    for sample in samples {
        let s0 = Double(sample) / 32768 + coefficient * s1 - s2
        s2 = s1
        s1 = s0
    }
    let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
    return 2 * power.squareRoot() / Double(samples.count)
}

/// `count` buffers from shortly after the first one with sound in it (peak above 1000 of
/// 32768): what a tone player starting a moment after the capture delivers, past the
/// loopback's switch to the playback side's timing; empty if the sound never came.
func toneWindow(_ buffers: [CMSampleBuffer], count: Int, after settle: Int = 4) -> [CMSampleBuffer] {
    guard let first = buffers.firstIndex(where: { monoSamples([$0]).contains { abs(Int($0)) > 1000 } }),
        first + settle + count <= buffers.count
    else { return [] }
    return Array(buffers[(first + settle)..<(first + settle + count)])
}
