import CALSA
import Foundation
import Testing
import TestSupport

@testable import ALSAAudio
@testable import OpenCapture

/// ALSA's `default` PCM in the test VM, and the latency from a period to the delegate.
///
/// In the VM `default` is card 0's: snd-aloop's Loopback.conf captures through plug,
/// softvol and dsnoop on `hw:Loopback,0`, which hears what is played into `hw:Loopback,1`
/// (scripts/vivid-vm gives the image the `audio` group dsnoop's shared memory needs).
extension ALSADriverTests {
    /// A 1 kHz sine played into `hw:Loopback,1,0` (through plug: the capture side, opened
    /// first, fixes the loopback's format) comes out of `alsa:default`.
    @Test func defaultPCMCapturesTheLoopback() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "alsa:default"))
        #expect(AVCaptureDevice.default(for: .audio) == device)
        #expect(device.localizedName == "Default Audio Device" && device.deviceType == .microphone)
        let asbd = try #require(device.activeFormat.formatDescription.audioStreamBasicDescription)
        #expect(asbd.mSampleRate == 48_000 && asbd.mChannelsPerFrame == 1 && asbd.mBitsPerChannel == 16)
        #expect(AVAudioSession.port(for: device).portType == .builtInMic)
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureAudioDataOutput()
        let collector = AudioCollector()
        output.setSampleBufferDelegate(collector, queue: collector.queue)
        session.addOutput(output)
        session.startRunning()
        #expect(waitUntil(within: .seconds(20)) { collector.buffers.count >= 2 })
        let player = TonePlayer(pcm: "plughw:Loopback,1,0", frequency: 1000, amplitude: 0.25)
        let enough = waitUntil(within: .seconds(30)) { toneWindow(collector.buffers, count: 24).count == 24 }
        session.stopRunning()
        player.stop()
        #expect(player.error.withLock { $0 } == nil)
        #expect(enough)
        let buffers = toneWindow(collector.buffers, count: 24)
        let samples = monoSamples(buffers)
        let tone = toneAmplitude(samples, frequency: 1000, rate: 48_000)
        let off = toneAmplitude(samples, frequency: 1500, rate: 48_000)
        print("alsa-test: default: tone amplitude \(tone) (1.5 kHz \(off)) in \(buffers.count) buffers")
        #expect(buffers.count == 24)
        // softvol starts at 0 dB: the level comes through (plug converts it to mono).
        #expect(abs(tone - 0.25) < 0.03)
        #expect(off < 0.005)
        // Contiguous to the sample (dsnoop's periods are 1024 frames too).
        for (a, b) in zip(buffers, buffers.dropFirst()) {
            let (t0, t1) = (a.presentationTimeStamp, b.presentationTimeStamp)
            #expect(t1.value - t0.value == Int64(a.numSamples) && t1.timescale == 48_000, "\(t0.value) -> \(t1.value)")
        }
    }

    /// `default` is card 0's: unplugging snd-aloop (card 0) takes `alsa:default` away and the
    /// simulated microphone becomes the default; plugging it in again brings `alsa:default` back.
    @Test func defaultFollowsTheFirstCard() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "alsa:default"))
        print("alsa-test: sound-unplug aloop: \(SoundCards.run("/opt/bin/sound-unplug aloop"))")
        #expect(waitUntil(within: .seconds(20)) { !device.isConnected })
        #expect(AVCaptureDevice(uniqueID: "alsa:default") == nil)
        #expect(AVCaptureDevice.default(for: .audio)?.uniqueID == "sim:microphone")
        print("alsa-test: sound-plug aloop: \(SoundCards.run("/opt/bin/sound-plug aloop"))")
        #expect(waitUntil(within: .seconds(20)) {
            AVCaptureDevice(uniqueID: "alsa:default") != nil && AVCaptureDevice(uniqueID: "alsa:Loopback,1") != nil
        })
        let back = try #require(AVCaptureDevice(uniqueID: "alsa:default"))
        #expect(back.isConnected && AVCaptureDevice.default(for: .audio) == back)
    }

    /// The latency from the end of an ALSA period (the driver's CLOCK_MONOTONIC stamp, which
    /// places the buffer's samples) to the delegate receiving it, read on the same clock:
    /// receive time minus (presentation time + duration). docs/PERFORMANCE.md quotes it.
    /// The timestamps are the driver's stamps followed to the sample (re-placed beyond 20 ms),
    /// so the figure carries the first buffer's placement error too (a few ms either way).
    @Test func periodToDelegateLatency() throws {
        for id in ["alsa:Loopback,1", "alsa:Dummy,0"] {
            let device = try #require(AVCaptureDevice(uniqueID: id))
            let session = AVCaptureSession()
            session.addInput(try AVCaptureDeviceInput(device: device))
            let output = AVCaptureAudioDataOutput()
            let collector = LatencyCollector()
            output.setSampleBufferDelegate(collector, queue: collector.queue)
            session.addOutput(output)
            session.startRunning()
            // Nothing plays into the loopback: its capture side runs on its own timer, in silence.
            let enough = waitUntil(within: .seconds(60)) { collector.latencies.count >= 250 }
            session.stopRunning()
            #expect(enough)
            // The first buffers include the stream starting; the rest is the steady state.
            let steady = collector.latencies.dropFirst(10).sorted()
            guard !steady.isEmpty else { continue }
            let median = steady[steady.count / 2]
            let p99 = steady[min(steady.count - 1, steady.count * 99 / 100)]
            let mean = steady.reduce(0, +) / Double(steady.count)
            print(String(
                format: "alsa-test: latency %@: %d buffers, min %.2f ms, median %.2f ms, mean %.2f ms, p99 %.2f ms, max %.2f ms",
                id, steady.count, steady.first! * 1000, median * 1000, mean * 1000, p99 * 1000, steady.last! * 1000))
            // A buffer cannot reach the delegate before its last sample was captured; its
            // timestamp follows the previous buffer's to the sample while within 20 ms of the
            // driver's stamps, so up to that much of the placement shows here.
            // How long after is the figure printed above (docs/PERFORMANCE.md quotes it), not a
            // rule: on a busy machine the VM's threads wait for a core.
            #expect(steady.first! > -0.021, "latencies \(steady.prefix(5))")
        }
    }
}

/// Records, per buffer, how long after its last sample's host time the delegate got it.
final class LatencyCollector: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "test.latency-collector")
    private let state = Mutex<[Double]>([])
    var latencies: [Double] { state.withLock { $0 } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let received = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        let rate = sampleBuffer.formatDescription?.audioStreamBasicDescription?.mSampleRate ?? 48_000
        let end = sampleBuffer.presentationTimeStamp.seconds + Double(sampleBuffer.numSamples) / rate
        state.withLock { $0.append(received - end) }
    }
}
