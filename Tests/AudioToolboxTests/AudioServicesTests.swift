import Dispatch
import Foundation
import Testing

@testable import AudioToolbox

/// The AudioServices functions as an app calls them, against the shared server and this
/// machine's ALSA `default` PCM (with no sound card, a muted phone). The sounds are silent,
/// so a machine with speakers plays nothing audible.
@Suite("AudioServices functions", .serialized)
struct AudioServicesTests {
    private static func waitForSounds() -> Bool {
        SystemSoundServer.shared.waitUntilIdle(deadline: .now() + 60)
    }

    @Test("a WAV the test made is created, played, and its completion runs once, off the caller's thread")
    func createAndPlay() throws {
        let files = try SoundFiles()
        defer { files.remove() }
        let (url, _) = try files.wav("silence.wav", samples: [Int16](repeating: 0, count: 4_800), rate: 48_000, channels: 1)
        var soundID: SystemSoundID = 0
        #expect(AudioServicesCreateSystemSoundID(url as CFURL, &soundID) == kAudioServicesNoError)
        #expect(soundID >= SystemSoundServer.firstCreatedID)
        let log = CallLog()
        let caller = pthread_self()
        AudioServicesPlaySystemSoundWithCompletion(soundID) { log.record(onCompletionQueue: SystemSoundServer.shared.isOnCompletionQueue) }
        #expect(Self.waitForSounds())
        #expect(log.calls.count == 1)
        #expect(log.calls.allSatisfy { $0.onCompletionQueue && pthread_equal($0.thread, caller) == 0 })
        AudioServicesPlayAlertSoundWithCompletion(soundID) { log.record() }
        #expect(Self.waitForSounds())
        #expect(log.calls.count == 2)
        #expect(AudioServicesDisposeSystemSoundID(soundID) == kAudioServicesNoError)
    }

    @Test("a missing file, a file that is not audio and a sound over 30 s are refused, the ID left as it was")
    func refusedFiles() throws {
        let files = try SoundFiles()
        defer { files.remove() }
        var soundID: SystemSoundID = 7
        #expect(AudioServicesCreateSystemSoundID(files.url("missing.wav") as CFURL, &soundID) == kAudioServicesSystemSoundUnspecifiedError)
        let text = files.url("notes.wav")
        try Data("not a sound at all, just words\n".utf8).write(to: text)
        #expect(AudioServicesCreateSystemSoundID(text as CFURL, &soundID) == kAudioServicesSystemSoundUnspecifiedError)
        let (long, _) = try files.wav("long.wav", samples: [Int16](repeating: 0, count: 8_000 * 31), rate: 8_000, channels: 1)
        #expect(AudioServicesCreateSystemSoundID(long as CFURL, &soundID) == kAudioServicesSystemSoundExceededMaximumDurationError)
        #expect(soundID == 7)
        // Thirty seconds exactly is allowed.
        let (limit, _) = try files.wav("limit.wav", samples: [Int16](repeating: 0, count: 8_000 * 30), rate: 8_000, channels: 1)
        #expect(AudioServicesCreateSystemSoundID(limit as CFURL, &soundID) == kAudioServicesNoError)
        #expect(AudioServicesDisposeSystemSoundID(soundID) == kAudioServicesNoError)
    }

    @Test("dispose, then play the ID no longer known: the completion still runs once")
    func disposeThenPlay() throws {
        let files = try SoundFiles()
        defer { files.remove() }
        let (url, _) = try files.wav("silence.wav", samples: [Int16](repeating: 0, count: 800), rate: 8_000, channels: 1)
        var soundID: SystemSoundID = 0
        #expect(AudioServicesCreateSystemSoundID(url as CFURL, &soundID) == kAudioServicesNoError)
        #expect(AudioServicesDisposeSystemSoundID(soundID) == kAudioServicesNoError)
        #expect(AudioServicesDisposeSystemSoundID(soundID) == kAudioServicesSystemSoundUnspecifiedError)
        let log = CallLog()
        AudioServicesPlaySystemSoundWithCompletion(soundID) { log.record() }
        AudioServicesPlaySystemSoundWithCompletion(1108) { log.record() }
        AudioServicesPlayAlertSoundWithCompletion(kSystemSoundID_Vibrate) { log.record() }
        #expect(Self.waitForSounds())
        #expect(log.calls.count == 3)
    }

    @Test("properties: defaults, a value set and read back, and the errors for bad sizes and unknown properties")
    func properties() throws {
        var soundID: SystemSoundID = 1108
        let size32 = UInt32(MemoryLayout<UInt32>.size)
        var value: UInt32 = 99
        var size = size32
        #expect(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, size32, &soundID, &size, &value) == kAudioServicesNoError)
        #expect(value == 1 && size == 4)
        #expect(AudioServicesGetProperty(kAudioServicesPropertyCompletePlaybackIfAppDies, size32, &soundID, &size, &value) == kAudioServicesNoError)
        #expect(value == 0)
        var newValue: UInt32 = 0
        #expect(AudioServicesSetProperty(kAudioServicesPropertyIsUISound, size32, &soundID, size32, &newValue) == kAudioServicesNoError)
        #expect(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, size32, &soundID, &size, &value) == kAudioServicesNoError)
        #expect(value == 0)
        newValue = 1
        #expect(AudioServicesSetProperty(kAudioServicesPropertyIsUISound, size32, &soundID, size32, &newValue) == kAudioServicesNoError)
        var writable: DarwinBoolean = false
        var infoSize: UInt32 = 0
        #expect(AudioServicesGetPropertyInfo(kAudioServicesPropertyIsUISound, size32, &soundID, &infoSize, &writable) == kAudioServicesNoError)
        #expect(infoSize == 4 && writable.boolValue)
        var wide: UInt64 = 1108
        #expect(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, 8, &wide, &size, &value) == kAudioServicesBadSpecifierSizeError)
        #expect(AudioServicesSetProperty(kAudioServicesPropertyIsUISound, size32, &soundID, 2, &newValue) == kAudioServicesBadPropertySizeError)
        var small: UInt32 = 2
        #expect(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, size32, &soundID, &small, &value) == kAudioServicesBadPropertySizeError)
        #expect(AudioServicesGetProperty(0x7878_7878, size32, &soundID, &size, &value) == kAudioServicesUnsupportedPropertyError)
        // The size alone, with no buffer.
        var asked: UInt32 = 0
        #expect(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, size32, &soundID, &asked, nil) == kAudioServicesNoError)
        #expect(asked == 4)
        #expect(kAudioServicesUnsupportedPropertyError == 1_886_681_407 && kAudioServicesBadPropertySizeError == 561_211_770)
        #expect(kAudioServicesBadSpecifierSizeError == 561_213_539 && kAudioServicesPropertyIsUISound == 1_769_174_377)
        #expect(kAudioServicesPropertyCompletePlaybackIfAppDies == 1_768_318_057)
    }

    @Test("a completion routine given a run loop runs on that run loop's thread")
    func completionRoutineOnRunLoop() throws {
        let ran = RunLoopThread()
        defer { ran.stop() }
        let loop = try ran.start()
        let log = CallLog()
        let proc: AudioServicesSystemSoundCompletionProc = { id, data in
            guard let data else { return }
            Unmanaged<CallLog>.fromOpaque(data).takeUnretainedValue().record(soundID: id)
        }
        let soundID: SystemSoundID = 1057
        #expect(AudioServicesAddSystemSoundCompletion(soundID, loop, nil, proc, Unmanaged.passUnretained(log).toOpaque()) == kAudioServicesNoError)
        defer { AudioServicesRemoveSystemSoundCompletion(soundID) }
        AudioServicesPlaySystemSound(soundID)
        #expect(Self.waitForSounds())
        #expect(log.wait(forCount: 1))
        let calls = log.calls
        #expect(calls.count == 1 && calls.first?.soundID == soundID)
        #expect(calls.allSatisfy { pthread_equal($0.thread, ran.thread) != 0 })
        withExtendedLifetime(log) {}
    }
}
