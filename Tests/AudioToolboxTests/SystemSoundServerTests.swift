import ALSAAudio
import Dispatch
import Foundation
import Testing

@testable import AudioToolbox

/// The System Sound server against ALSA's `file` plug-in: `default` is defined in a
/// configuration the test writes, so what is played lands in a file without sound hardware.
@Suite("System sound server")
struct SystemSoundServerTests {
    /// A server whose `default` PCM writes to `raw`.
    private static func capturingServer(_ files: SoundFiles, raw: URL) throws -> SystemSoundServer {
        SystemSoundServer(output: ALSAPlayback(configuration: try files.fileOutputConfiguration(capturingTo: raw)))
    }

    @Test("a created sound plays its decoded samples to ALSA's default PCM, then the completion runs once on the completion queue")
    func playsToDefault() throws {
        let files = try SoundFiles()
        defer { files.remove() }
        let (url, stored) = try files.wav("tone.wav", samples: SoundFiles.tone(seconds: 0.3, rate: 22_050, channels: 2), rate: 22_050, channels: 2)
        let raw = files.url("played.raw")
        let server = try Self.capturingServer(files, raw: raw)
        let id = try server.create(url).get()
        #expect(id >= SystemSoundServer.firstCreatedID)
        let sound = try #require(server.sound(id))
        #expect(sound.sampleRate == 22_050 && sound.channels == 2 && sound.frames == 6_615)
        #expect(sound.samples == stored)
        let log = CallLog()
        let caller = pthread_self()
        server.play(id) { log.record(onCompletionQueue: server.isOnCompletionQueue) }
        #expect(server.waitUntilIdle(deadline: .now() + 60))
        let calls = log.calls
        #expect(calls.count == 1)
        #expect(calls.allSatisfy { $0.onCompletionQueue && pthread_equal($0.thread, caller) == 0 })
        // The file plug-in wrote exactly the samples the WAV holds, in order.
        let played = try Data(contentsOf: raw)
        #expect(played.count == stored.count)
        #expect(played == stored)
    }

    @Test("two plays of one sound write it twice and call each completion once")
    func playsTwice() throws {
        let files = try SoundFiles()
        defer { files.remove() }
        let (url, stored) = try files.wav("mono.wav", samples: SoundFiles.tone(seconds: 0.1, rate: 8_000, channels: 1), rate: 8_000, channels: 1)
        let raw = files.url("played.raw")
        let server = try Self.capturingServer(files, raw: raw)
        let id = try server.create(url).get()
        let first = CallLog()
        let second = CallLog()
        server.play(id) { first.record() }
        #expect(server.waitUntilIdle(deadline: .now() + 60))
        // Each play opens the PCM afresh; the file plug-in truncates its file on open.
        #expect(try Data(contentsOf: raw) == stored)
        server.play(id) { second.record() }
        #expect(server.waitUntilIdle(deadline: .now() + 60))
        #expect(first.calls.count == 1 && second.calls.count == 1)
        #expect(try Data(contentsOf: raw) == stored)
    }

    @Test("a sound plays on a thread of its own: play returns while the PCM still takes samples, the completion runs after the last")
    func playsOnItsOwnThread() throws {
        let files = try SoundFiles()
        defer { files.remove() }
        // One second of 48 kHz stereo: 192 000 bytes, more than a pipe holds.
        let (url, stored) = try files.wav("tone.wav", samples: SoundFiles.tone(seconds: 1, rate: 48_000, channels: 2), rate: 48_000, channels: 2)
        let raw = files.url("played.fifo")
        #expect(mkfifo(raw.path, 0o600) == 0)
        // Opened first and without blocking, so the file plug-in's open does not wait for a reader;
        // its writes then stall once the pipe is full, until the test reads.
        let reader = open(raw.path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let server = try Self.capturingServer(files, raw: raw)
        let id = try server.create(url).get()
        let log = CallLog()
        let returned = DispatchSemaphore(value: 0)
        Thread {
            server.play(id) { log.record(onCompletionQueue: server.isOnCompletionQueue) }
            returned.signal()
        }.start()
        let playReturned = returned.wait(timeout: .now() + 30) == .success
        #expect(playReturned, "play did not return while its sound could not be played out")
        // Nothing drains the pipe but this test: the sound cannot have ended.
        #expect(log.calls.isEmpty)
        // Drained until the writer closes. A FIFO reads as at its end (0) both before the
        // playback thread opens it and after it closes it, so 0 ends the loop only once bytes
        // came; before that the writer is not there yet (a busy machine may start it late),
        // and a loop that gave up then would close the FIFO under it (SIGPIPE kills the test
        // process).
        var played = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let patience = DispatchTime.now() + 60
        while DispatchTime.now() < patience {
            let count = read(reader, &chunk, chunk.count)
            if count > 0 {
                played.append(contentsOf: chunk[0..<count])
            } else if count == 0 && !played.isEmpty {
                break
            } else {
                usleep(2_000)
            }
        }
        #expect(server.waitUntilIdle(deadline: .now() + 60))
        #expect(played == stored)
        #expect(log.calls.count == 1 && log.calls.allSatisfy(\.onCompletionQueue))
        if !playReturned { _ = returned.wait(timeout: .now() + 60) }
    }

    @Test("playing returns before the completion runs: the completion may wait for the caller")
    func playDoesNotBlock() throws {
        let files = try SoundFiles()
        defer { files.remove() }
        let (url, _) = try files.wav("tone.wav", samples: SoundFiles.tone(seconds: 0.05, rate: 8_000, channels: 1), rate: 8_000, channels: 1)
        let server = try Self.capturingServer(files, raw: files.url("played.raw"))
        let id = try server.create(url).get()
        for soundID in [id, 1108] {
            let gate = DispatchSemaphore(value: 0)
            let log = CallLog()
            // Were the completion called inside `play`, the gate would still be shut.
            server.play(soundID) {
                if gate.wait(timeout: .now() + 30) == .success { log.record() }
            }
            gate.signal()
            #expect(server.waitUntilIdle(deadline: .now() + 60))
            #expect(log.calls.count == 1, "sound \(soundID)")
        }
    }

    @Test("the system's sounds (1108, the shutter), vibration and unknown IDs play nothing and still complete once")
    func builtInSoundsComplete() throws {
        let files = try SoundFiles()
        defer { files.remove() }
        let raw = files.url("played.raw")
        let server = try Self.capturingServer(files, raw: raw)
        for id in [1108, kSystemSoundID_Vibrate, kSystemSoundID_UserPreferredAlert, 1000, 0, 0x7FFF_FFFF] {
            let log = CallLog()
            server.play(id) { log.record(onCompletionQueue: server.isOnCompletionQueue) }
            #expect(server.waitUntilIdle(deadline: .now() + 60))
            #expect(log.calls.count == 1 && log.calls.allSatisfy(\.onCompletionQueue), "sound \(id)")
        }
        // Nothing opened the PCM: the file plug-in makes its file when it is opened.
        #expect(!FileManager.default.fileExists(atPath: raw.path))
    }

    @Test("a disposed sound is gone: disposing again fails, playing it writes nothing and completes")
    func disposedSound() throws {
        let files = try SoundFiles()
        defer { files.remove() }
        let (url, _) = try files.wav("tone.wav", samples: SoundFiles.tone(seconds: 0.05, rate: 8_000, channels: 1), rate: 8_000, channels: 1)
        let raw = files.url("played.raw")
        let server = try Self.capturingServer(files, raw: raw)
        let id = try server.create(url).get()
        #expect(server.dispose(id) == kAudioServicesNoError)
        #expect(server.sound(id) == nil)
        #expect(server.dispose(id) == kAudioServicesSystemSoundUnspecifiedError)
        let log = CallLog()
        server.play(id) { log.record() }
        #expect(server.waitUntilIdle(deadline: .now() + 60))
        #expect(log.calls.count == 1)
        #expect(!FileManager.default.fileExists(atPath: raw.path))
        // IDs are not reused.
        #expect(try server.create(url).get() == id + 1)
    }

    @Test("with no sound card behind default, a sound is not played and still completes, as on a muted phone")
    func noOutput() throws {
        let files = try SoundFiles()
        defer { files.remove() }
        let (url, sound) = try files.wav("tone.wav", samples: SoundFiles.tone(seconds: 0.05, rate: 8_000, channels: 1), rate: 8_000, channels: 1)
        let output = ALSAPlayback(configuration: try files.missingCardConfiguration())
        guard case .noOutput = output.play(sound, sampleRate: 8_000, channels: 1) else {
            Issue.record("a missing card was not taken as no output")
            return
        }
        let server = SystemSoundServer(output: output)
        let id = try server.create(url).get()
        let log = CallLog()
        server.play(id) { log.record() }
        #expect(server.waitUntilIdle(deadline: .now() + 60))
        #expect(log.calls.count == 1)
    }

    @Test("a completion routine runs after each play on the completion queue, with its client data, until removed")
    func completionRoutine() throws {
        let files = try SoundFiles()
        defer { files.remove() }
        let server = try Self.capturingServer(files, raw: files.url("played.raw"))
        let log = CallLog()
        let proc: AudioServicesSystemSoundCompletionProc = { id, data in
            guard let data else { return }
            Unmanaged<CallLog>.fromOpaque(data).takeUnretainedValue().record(soundID: id)
        }
        server.addCompletion(
            kSystemSoundID_Vibrate, runLoop: nil, mode: .default, proc: proc, clientData: Unmanaged.passUnretained(log).toOpaque())
        server.play(kSystemSoundID_Vibrate, completion: nil)
        server.play(1108, completion: nil)
        #expect(server.waitUntilIdle(deadline: .now() + 60))
        #expect(log.calls.map(\.soundID) == [kSystemSoundID_Vibrate])
        server.removeCompletion(kSystemSoundID_Vibrate)
        server.play(kSystemSoundID_Vibrate, completion: nil)
        #expect(server.waitUntilIdle(deadline: .now() + 60))
        #expect(log.calls.count == 1)
        withExtendedLifetime(log) {}
    }
}
