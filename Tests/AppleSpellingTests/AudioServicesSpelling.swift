// AudioServices.h (AudioToolbox), reached as iOS code reaches it: through `import
// AVFoundation` alone. Apps play (or put in place of the shutter's) a short sound with it.
import AVFoundation
import Foundation
import Testing

/// Touches every declaration of System Sound Services; compiled, never called.
func spellAudioServices(_ url: URL) {
    var soundID: SystemSoundID = 0
    let created: OSStatus = AudioServicesCreateSystemSoundID(url as CFURL, &soundID)
    // Results unused, as apps write it: no warning, as for the imported C functions.
    AudioServicesCreateSystemSoundID(url as CFURL, &soundID)
    AudioServicesPlaySystemSoundWithCompletion(soundID) {
        AudioServicesDisposeSystemSoundID(soundID)
    }
    AudioServicesPlayAlertSoundWithCompletion(kSystemSoundID_Vibrate, nil)
    AudioServicesPlaySystemSound(1108)
    AudioServicesPlayAlertSound(kSystemSoundID_Vibrate)
    let proc: AudioServicesSystemSoundCompletionProc = { finished, _ in
        AudioServicesRemoveSystemSoundCompletion(finished)
    }
    let added: OSStatus = AudioServicesAddSystemSoundCompletion(soundID, nil, nil, proc, nil)
    AudioServicesAddSystemSoundCompletion(kSystemSoundID_Vibrate, CFRunLoopGetMain(), nil, { _, _ in }, nil)
    AudioServicesAddSystemSoundCompletion(soundID, CFRunLoopGetCurrent(), "kCFRunLoopDefaultMode" as CFString, proc, nil)
    AudioServicesRemoveSystemSoundCompletion(soundID)
    var flag: UInt32 = 1
    let set: OSStatus = AudioServicesSetProperty(
        kAudioServicesPropertyCompletePlaybackIfAppDies, UInt32(MemoryLayout<SystemSoundID>.size), &soundID,
        UInt32(MemoryLayout<UInt32>.size), &flag)
    var size = UInt32(MemoryLayout<UInt32>.size)
    let got: OSStatus = AudioServicesGetProperty(kAudioServicesPropertyIsUISound, UInt32(MemoryLayout.size(ofValue: soundID)), &soundID, &size, &flag)
    var writable: DarwinBoolean = false
    let info: OSStatus = AudioServicesGetPropertyInfo(kAudioServicesPropertyIsUISound, 4, &soundID, &size, &writable)
    AudioServicesGetPropertyInfo(kAudioServicesPropertyIsUISound, 4, &soundID, nil, nil)
    let canSet: Bool = writable.boolValue || Bool(writable)
    let disposed: OSStatus = AudioServicesDisposeSystemSoundID(soundID)
    let errors: [OSStatus] = [
        kAudioServicesNoError, kAudioServicesUnsupportedPropertyError, kAudioServicesBadPropertySizeError,
        kAudioServicesBadSpecifierSizeError, kAudioServicesSystemSoundUnspecifiedError, kAudioServicesSystemSoundClientTimedOutError,
        kAudioServicesSystemSoundExceededMaximumDurationError,
    ]
    let ids: [SystemSoundID] = [kSystemSoundID_Vibrate, kSystemSoundID_UserPreferredAlert, kSystemSoundID_FlashScreen]
    let properties: [AudioServicesPropertyID] = [kAudioServicesPropertyIsUISound, kAudioServicesPropertyCompletePlaybackIfAppDies]
    _ = (created, added, set, got, info, canSet, disposed, errors, ids, properties)
}

/// The deprecated name; compiled, never called.
@available(*, deprecated, message: "touches kUserPreferredAlert, deprecated in AudioServices.h")
func spellAudioServicesDeprecated() -> SystemSoundID { kUserPreferredAlert }

/// App state as apps keep it: not Sendable.
private final class ShutterSoundState {
    var played = 0
}

@Suite("AudioServices spelling")
struct AudioServicesSpellingTests {
    @Test("the error codes, sound IDs and property IDs have Apple's values")
    func values() {
        #expect(kAudioServicesNoError == 0)
        #expect(kAudioServicesUnsupportedPropertyError == 0x7074_793F)  // 'pty?'
        #expect(kAudioServicesBadPropertySizeError == 0x2173_697A)  // '!siz'
        #expect(kAudioServicesBadSpecifierSizeError == 0x2173_7063)  // '!spc'
        #expect(kAudioServicesSystemSoundUnspecifiedError == -1500)
        #expect(kAudioServicesSystemSoundClientTimedOutError == -1501)
        #expect(kAudioServicesSystemSoundExceededMaximumDurationError == -1502)
        #expect(kSystemSoundID_Vibrate == 0xFFF && kSystemSoundID_UserPreferredAlert == 0x1000 && kSystemSoundID_FlashScreen == 0xFFE)
        #expect(kAudioServicesPropertyIsUISound == 0x6973_7569)  // 'isui'
        #expect(kAudioServicesPropertyCompletePlaybackIfAppDies == 0x6966_6469)  // 'ifdi'
    }

    @Test("a custom shutter sound as iOS code plays it: created from a WAV, played, completion called")
    func customShutterSound() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spelling-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("shutter.wav")
        try Self.silentWAV(frames: 1_600).write(to: url)

        var soundID: SystemSoundID = 0
        let status = AudioServicesCreateSystemSoundID(url as CFURL, &soundID)
        #expect(status == kAudioServicesNoError)
        let state = ShutterSoundState()
        let done = DispatchSemaphore(value: 0)
        AudioServicesPlaySystemSoundWithCompletion(soundID) {
            state.played += 1
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(state.played == 1)
        #expect(AudioServicesDisposeSystemSoundID(soundID) == kAudioServicesNoError)
    }

    @Test("the camera shutter sound (1108) and vibration complete though nothing plays them here")
    func systemSounds() {
        let done = DispatchSemaphore(value: 0)
        AudioServicesPlaySystemSoundWithCompletion(1108) { done.signal() }
        AudioServicesPlayAlertSoundWithCompletion(kSystemSoundID_Vibrate) { done.signal() }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(done.wait(timeout: .now() + 60) == .success)
    }

    /// A mono 16-bit 16 kHz WAV of silence.
    private static func silentWAV(frames: Int) -> Data {
        var data = Data("RIFF".utf8)
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func append(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(UInt32(36 + frames * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(1))
        append(UInt16(1))
        append(UInt32(16_000))
        append(UInt32(32_000))
        append(UInt16(2))
        append(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        append(UInt32(frames * 2))
        data.append(Data(count: frames * 2))
        return data
    }
}
