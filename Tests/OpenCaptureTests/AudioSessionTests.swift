import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// Collects a few buffers of the simulated microphone.
private final class BufferCollector: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    let buffers = Mutex<[CMSampleBuffer]>([])
    let done: Completion<Void>
    let wanted: Int

    init(wanted: Int) {
        self.wanted = wanted
        done = Completion("\(wanted) audio buffers")
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let count = buffers.withLock { list -> Int in
            list.append(sampleBuffer)
            return list.count
        }
        if count == wanted { done.fulfil() }
    }
}

/// Restores the shared audio session's category, preferences and input mute after a test.
private func withCleanAudioSession(_ body: (AVAudioSession) throws -> Void) throws {
    let session = AVAudioSession.sharedInstance()
    defer {
        try? session.setCategory(.soloAmbient, mode: .default, options: [])
        try? session.setPreferredInput(nil)
        try? session.setActive(false)
        try? session.setPrefersInterruptionOnRouteDisconnect(false)
        try? AVAudioApplication.shared.setInputMuted(false)
    }
    try body(session)
}

@Suite("AVAudioSession on Linux")
struct AudioSessionTests {
    @Test("Categories, modes and options follow Apple's rules; bad combinations are badParam")
    func categoryRules() throws {
        try withCleanAudioSession { session in
            #expect(session.category == .soloAmbient && session.mode == .default && session.categoryOptions.isEmpty)
            try session.setCategory(.playAndRecord, mode: .videoRecording, options: [.defaultToSpeaker, .allowBluetooth])
            #expect(session.category == .playAndRecord && session.mode == .videoRecording)
            #expect(session.categoryOptions == [.defaultToSpeaker, .allowBluetooth])
            // Ducking makes the session mixable, as on iOS.
            try session.setCategory(.playback, options: .duckOthers)
            #expect(session.categoryOptions == [.duckOthers, .mixWithOthers])
            // Playback does not take video recording: the kept mode falls back to the default.
            #expect(session.mode == .default)
            let bad: [() throws -> Void] = [
                { try session.setCategory(.playback, options: .defaultToSpeaker) },
                { try session.setCategory(.record, mode: .moviePlayback) },
                { try session.setCategory(.soloAmbient, options: .mixWithOthers) },
                { try session.setCategory(.ambient, options: .allowBluetooth) },
                { try session.setPreferredSampleRate(-1) },
            ]
            for call in bad {
                #expect { try call() } throws: { ($0 as NSError).code == AVAudioSession.ErrorCode.badParam.rawValue && ($0 as NSError).domain == NSOSStatusErrorDomain }
            }
            #expect(session.category == .playback)
            try session.setCategory(.soloAmbient)
            #expect(throws: NSError.self) { try session.setMode(.voiceChat) }
        }
    }

    @Test("A record category routes the simulated microphone: its port, rate, channels and buffer duration")
    func routeAndHardwareValues() throws {
        try withCleanAudioSession { session in
            #expect(session.availableInputs?.isEmpty == true && session.currentRoute.inputs.isEmpty)
            #expect(session.inputNumberOfChannels == 0)
            let changed = Completion<UInt>("route change")
            let observer = NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification, object: session, queue: nil) {
                changed.fulfil(($0.userInfo?[AVAudioSessionRouteChangeReasonKey] as? NSNumber)?.uintValue ?? 99)
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            try session.setCategory(.record)
            #expect(try changed.wait(within: .seconds(5)) == AVAudioSession.RouteChangeReason.categoryChange.rawValue)
            let port = try #require(session.currentRoute.inputs.first)
            #expect(port.portType == .builtInMic && port.uid == "sim:microphone" && port.portName == "iPhone Microphone")
            #expect(session.availableInputs?.contains(port) == true)
            #expect(session.currentRoute.outputs.isEmpty)
            #expect(session.sampleRate == 48_000 && session.inputNumberOfChannels == 1)
            #expect(abs(session.ioBufferDuration - 1024.0 / 48_000) < 1e-9)
            // Preferences are kept; the hardware keeps its own values.
            try session.setPreferredSampleRate(44_100)
            try session.setPreferredIOBufferDuration(0.005)
            #expect(session.preferredSampleRate == 44_100 && session.preferredIOBufferDuration == 0.005)
            #expect(session.sampleRate == 48_000)
            #expect(!session.isInputGainSettable && session.inputGain == 1)
            #expect(throws: NSError.self) { try session.setInputGain(0.5) }
            try session.setPreferredSampleRate(0)
            try session.setPreferredIOBufferDuration(0)
        }
    }

    @Test("The preferred input must be an available one and becomes the default audio device")
    func preferredInput() throws {
        try withCleanAudioSession { session in
            try session.setCategory(.playAndRecord)
            let port = try #require(session.availableInputs?.first)
            try session.setPreferredInput(port)
            #expect(session.preferredInput?.uid == port.uid)
            #expect(AVCaptureDevice.default(for: .audio)?.uniqueID == port.uid)
            let stranger = AVAudioSessionPortDescription(portType: .usbAudio, portName: "Nobody", uid: "alsa:Nowhere,0")
            #expect { try session.setPreferredInput(stranger) } throws: { ($0 as NSError).code == AVAudioSession.ErrorCode.badParam.rawValue }
            try session.setPreferredInput(nil)
            #expect(session.preferredInput == nil)
        }
    }

    @Test("A muted app hears zeros and its meters read silence; unmuted, the tone again")
    func inputMute() throws {
        try withCleanAudioSession { _ in
            let microphone = try #require(AVCaptureDevice(uniqueID: "sim:microphone"))
            let simulation = try #require(microphone.microphoneSimulation)
            simulation.pacing = .virtual
            simulation.removeAllSounds()
            simulation.addTone(frequency: 1000, level: 94)
            defer { simulation.removeAllSounds() }
            func capture() throws -> (peak: Int, meter: Float) {
                let session = AVCaptureSession()
                session.addInput(try AVCaptureDeviceInput(device: microphone))
                let output = AVCaptureAudioDataOutput()
                let collector = BufferCollector(wanted: 3)
                output.setSampleBufferDelegate(collector, queue: DispatchQueue(label: "mute test"))
                session.addOutput(output)
                session.startRunning()
                try collector.done.wait(within: .seconds(10))
                let meter = output.connection(with: .audio)?.audioChannels.first?.averagePowerLevel ?? 0
                session.stopRunning()
                var peak = 0
                for buffer in collector.buffers.withLock({ Array($0.prefix(3)) }) {
                    let data = try #require(buffer.dataBuffer)
                    var samples = [Int16](repeating: 0, count: data.dataLength / 2)
                    _ = samples.withUnsafeMutableBytes { CMBlockBufferCopyDataBytes(data, atOffset: 0, dataLength: $0.count, destination: $0.baseAddress!) }
                    peak = max(peak, samples.map { abs(Int($0)) }.max() ?? 0)
                }
                return (peak, meter)
            }
            let muteChanged = Completion<Bool>("mute notification")
            let observer = NotificationCenter.default.addObserver(forName: AVAudioApplication.inputMuteStateChangeNotification, object: nil, queue: nil) {
                muteChanged.fulfil(($0.userInfo?[AVAudioApplication.muteStateKey] as? NSNumber)?.boolValue ?? false)
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            try AVAudioApplication.shared.setInputMuted(true)
            #expect(try muteChanged.wait(within: .seconds(5)))
            let muted = try capture()
            #expect(muted.peak == 0 && muted.meter == -160)
            try AVAudioApplication.shared.setInputMuted(false)
            let heard = try capture()
            // A 94 dB SPL sine is −26 dBFS RMS: amplitude 0.0708, about 2320.
            #expect(heard.peak > 2000 && abs(heard.meter - (-26)) < 1)
        }
    }

    @Test("Record permission is granted when every sound device may be opened")
    func recordPermission() async {
        #expect(AVAudioApplication.shared.recordPermission == .granted)
        #expect(await AVAudioApplication.requestRecordPermission())
    }

    @Test("Unplugging the routed microphone posts a route change and, when opted in, an interruption")
    func unplugInterrupts() async {
        await #expect(processExitsWith: .success) {
            let session = AVAudioSession.sharedInstance()
            try session.setCategory(.playAndRecord, mode: .videoRecording)
            try session.setActive(true)
            try session.setPrefersInterruptionOnRouteDisconnect(true)
            let microphone = AVCaptureDevice(uniqueID: "sim:microphone")!
            let route = Completion<(UInt, String?)>("route change")
            let interruption = Completion<(UInt, UInt)>("interruption")
            let routeObserver = NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification, object: session, queue: nil) { note in
                let previous = note.userInfo?[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription
                let reason = (note.userInfo?[AVAudioSessionRouteChangeReasonKey] as? NSNumber)?.uintValue ?? 99
                // The category change above posts one too (.categoryChange), maybe after this observer is added.
                guard reason != AVAudioSession.RouteChangeReason.categoryChange.rawValue else { return }
                route.fulfil((reason, previous?.inputs.first?.uid))
            }
            let interruptionObserver = NotificationCenter.default.addObserver(forName: AVAudioSession.interruptionNotification, object: session, queue: nil) { note in
                interruption.fulfil((
                    (note.userInfo?[AVAudioSessionInterruptionTypeKey] as? NSNumber)?.uintValue ?? 99,
                    (note.userInfo?[AVAudioSessionInterruptionReasonKey] as? NSNumber)?.uintValue ?? 99))
            }
            microphone.microphoneSimulation!.disconnect()
            let (reason, previous) = try route.wait(within: .seconds(10))
            let (type, why) = try interruption.wait(within: .seconds(10))
            NotificationCenter.default.removeObserver(routeObserver)
            NotificationCenter.default.removeObserver(interruptionObserver)
            let ok = reason == AVAudioSession.RouteChangeReason.oldDeviceUnavailable.rawValue && previous == "sim:microphone"
                && type == AVAudioSession.InterruptionType.began.rawValue && why == AVAudioSession.InterruptionReason.routeDisconnected.rawValue
                && session.currentRoute.inputs.isEmpty && !session.isInputAvailable
            exit(ok ? 0 : 1)
        }
    }
}
