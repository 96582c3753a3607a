import CALSA
import Foundation
import Testing
import TestSupport

@testable import ALSAAudio
@testable import OpenCapture

/// Real microphones against real ALSA kernel drivers: snd-aloop (what is played into
/// `hw:Loopback,0,0` is captured from `alsa:Loopback,1`) and snd-dummy, inside the test VM
/// (`make test-vivid`). Skipped elsewhere; `ALSADiscoveryTests` and the simulated
/// microphone's suites cover what needs no card.
@Suite("ALSA: real microphones on the real kernel drivers", .serialized, .enabled(if: SoundCards.arePresent))
struct ALSADriverTests {
    @Test func cardsAreMicrophones() throws {
        let types = [AVCaptureDevice.DeviceType.microphone]
        let found = AVCaptureDevice.DiscoverySession(deviceTypes: types, mediaType: .audio, position: .unspecified).devices
        print("alsa-test: microphones \(found.map(\.uniqueID))")
        let loopback = try #require(AVCaptureDevice(uniqueID: "alsa:Loopback,1"))
        #expect(loopback.hasMediaType(.audio) && loopback.deviceType == .microphone)
        #expect(found.contains(loopback))
        #expect(AVCaptureDevice(uniqueID: "alsa:Dummy,0") != nil)
        // With a sound card, ALSA's default PCM is the default microphone (issue 14: the
        // simulated one is the default only where no card is present).
        #expect(AVCaptureDevice.default(for: .audio)?.uniqueID == "alsa:default")
        #expect(found.contains { $0.uniqueID == "sim:microphone" })
        let asbd = try #require(loopback.activeFormat.formatDescription.audioStreamBasicDescription)
        #expect(asbd.mSampleRate == 48_000 && asbd.mChannelsPerFrame == 1 && asbd.mBitsPerChannel == 16)
    }

    /// A 1 kHz sine at −12 dBFS peak played into the loopback card comes out of the session:
    /// the tone by Goertzel, its level, the channel meter, contiguous timestamps on the host clock.
    @Test func loopbackToneIsCaptured() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "alsa:Loopback,1"))
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureAudioDataOutput()
        let collector = AudioCollector()
        output.setSampleBufferDelegate(collector, queue: collector.queue)
        session.addOutput(output)
        session.startRunning()
        let player = TonePlayer(pcm: "hw:Loopback,0,0", frequency: 1000, amplitude: 0.25)
        // Half a second of tone once it is heard: the player starts a moment after the capture
        // (a few buffers under the VM's emulated CPU), and the loopback's capture side then
        // switches to the playback side's timing (a jump the stream re-places from).
        let enough = waitUntil(within: .seconds(30)) { toneWindow(collector.buffers, count: 24).count == 24 }
        let meter = output.connection(with: .audio)?.audioChannels.first?.averagePowerLevel ?? -160
        session.stopRunning()
        player.stop()
        #expect(player.error.withLock { $0 } == nil)
        #expect(enough)
        let buffers = toneWindow(collector.buffers, count: 24)
        let samples = monoSamples(buffers)
        let tone = toneAmplitude(samples, frequency: 1000, rate: 48_000)
        let off = toneAmplitude(samples, frequency: 1500, rate: 48_000)
        print("alsa-test: tone amplitude \(tone) (1.5 kHz \(off)), meter \(meter) dBFS")
        #expect(abs(tone - 0.25) < 0.01)
        #expect(off < 0.005)
        #expect(abs(meter - (-15.05)) < 1)
        // Contiguous to the sample, on the host clock, ending about now.
        let times = buffers.map(\.presentationTimeStamp)
        for (a, b) in zip(times, times.dropFirst()) {
            #expect(b.value - a.value == 1024 && b.timescale == 48_000, "\(a.value) -> \(b.value)")
        }
        let now = CMClockGetTime(CMClockGetHostTimeClock()).seconds
        #expect(abs(now - (times.last?.seconds ?? 0)) < 5)
    }

    /// The capture thread stalling for longer than the ALSA buffer overruns the device: the
    /// stream recovers, says how much was lost, and later buffers show the gap.
    @Test func overrunIsRecovered() throws {
        let found = try #require(ALSADiscovery.scan().devices.first { $0.cardID == "Dummy" })
        let microphone = ALSAMicrophone(found)
        let sink = StallingSink(stallFirstBufferFor: 0.4)
        try microphone.startAudio(sink: sink)
        let recovered = waitUntil(within: .seconds(30)) { sink.state.withLock { $0.lost.count >= 1 && $0.times.count >= 4 } }
        microphone.stop()
        let (times, lost) = sink.state.withLock { ($0.times, $0.lost) }
        print("alsa-test: overrun lost \(lost.map(\.seconds)), times \(times.prefix(6).map(\.value))")
        #expect(recovered)
        #expect((lost.first?.seconds ?? 0) > 0.05)
        let gaps = zip(times, times.dropFirst()).map { $1.value - $0.value }
        #expect(gaps.allSatisfy { $0 > 0 })
        #expect(gaps.contains { $0 > 1024 * 3 })
    }

    /// A PCM another program holds (snd-dummy has one substream in the VM) cannot be an input.
    @Test func busyDeviceIsInUseByAnotherApplication() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "alsa:Dummy,0"))
        var handle: OpaquePointer?
        #expect(snd_pcm_open(&handle, "hw:Dummy,0", SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK) == 0)
        let pcm = try #require(handle)
        #expect { _ = try AVCaptureDeviceInput(device: device) } throws: {
            ($0 as? AVError)?.code == .deviceInUseByAnotherApplication
        }
        snd_pcm_close(pcm)
        _ = try AVCaptureDeviceInput(device: device)
    }

    /// Unplugging a card that streams (unbinding snd-dummy, then removing it): the session
    /// reports deviceWasDisconnected, the device wasDisconnected; loading the driver again
    /// brings a new device with the same unique ID.
    @Test func unplugDisconnectsAndReplugConnects() throws {
        let id = "alsa:Dummy,0"
        let device = try #require(AVCaptureDevice(uniqueID: id))
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureAudioDataOutput()
        let collector = AudioCollector()
        output.setSampleBufferDelegate(collector, queue: collector.queue)
        session.addOutput(output)
        session.startRunning()
        #expect(waitUntil(within: .seconds(20)) { collector.buffers.count >= 3 })
        let failure = Mutex<Int?>(nil)
        let observer = NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification, object: session, queue: nil) { note in
            let code = (note.userInfo?[AVCaptureSessionErrorKey] as? AVError)?.code.rawValue
            failure.withLock { $0 = code }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let unplugged = DispatchSemaphore(value: 0)
        // Not filtered by object: `init?(uniqueID:)` hands out a new handle of the device
        // (equal, not identical), and the registry posts with its own.
        let gone = waitForSoundNotification(AVCaptureDevice.wasDisconnectedNotification) {
            // The unbind returns only once the stream has closed the PCM: off this thread.
            let thread = Thread {
                print("alsa-test: sound-unplug dummy: \(SoundCards.run("/opt/bin/sound-unplug dummy"))")
                unplugged.signal()
            }
            thread.start()
        }
        #expect((gone?.object as? AVCaptureDevice) == device)
        #expect(waitUntil(within: .seconds(20)) { failure.withLock { $0 } != nil })
        #expect(failure.withLock { $0 } == AVError.Code.deviceWasDisconnected.rawValue)
        #expect(!device.isConnected)
        #expect(unplugged.wait(timeout: .now() + 30) == .success)
        session.stopRunning()
        let back = waitForSoundNotification(AVCaptureDevice.wasConnectedNotification) {
            print("alsa-test: sound-plug dummy: \(SoundCards.run("/opt/bin/sound-plug dummy"))")
        }
        let fresh = try #require(back?.object as? AVCaptureDevice)
        #expect(fresh.uniqueID == id && fresh.isConnected)
    }
}

/// A sink that sleeps in its first buffer (as a stuck consumer on the capture thread would).
final class StallingSink: AudioSink, @unchecked Sendable {
    let stall: Double
    let state = Mutex<(times: [CMTime], lost: [CMTime], failed: BackendError?)>(([], [], nil))

    init(stallFirstBufferFor seconds: Double) { stall = seconds }

    func backendDidCapture(audio sampleBuffer: CMSampleBuffer) {
        let first = state.withLock { s -> Bool in
            s.times.append(sampleBuffer.presentationTimeStamp)
            return s.times.count == 1
        }
        if first { usleep(UInt32(stall * 1_000_000)) }
    }

    func backendDidFail(_ error: BackendError) { state.withLock { $0.failed = error } }
    func backendDidOverrun(lost: CMTime) { state.withLock { $0.lost.append(lost) } }
    func waitUntilReadyForNextAudioBuffer() -> Bool { true }
}
