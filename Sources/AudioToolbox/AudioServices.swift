import CaptureCore
import Foundation

// System Sound Services (AudioServices.h) as Swift imports it. Each function hands its
// work to `SystemSoundServer.shared`, whose documentation says how sounds play on Linux:
// through ALSA's `default` PCM on a thread of their own, or, with no sound output, as on a
// muted iPhone (silently, the completion still called). Results are discardable, as those
// of the C functions are in Swift.

/// Decodes a sound file and registers it for playing; the ID goes to `outSystemSoundID`.
///
/// Any file FFmpeg decodes is accepted (Apple's takes CAF, AIFF and WAV). A missing file, one
/// without audio or one FFmpeg cannot decode answers `kAudioServicesSystemSoundUnspecifiedError`;
/// a sound over 30 seconds, `kAudioServicesSystemSoundExceededMaximumDurationError`. On
/// failure `outSystemSoundID` is left as it was.
@discardableResult
public func AudioServicesCreateSystemSoundID(_ inFileURL: CFURL, _ outSystemSoundID: UnsafeMutablePointer<SystemSoundID>) -> OSStatus {
    switch SystemSoundServer.shared.create(inFileURL as URL) {
    case .success(let id):
        outSystemSoundID.pointee = id
        return kAudioServicesNoError
    case .failure(let error):
        return error.status
    }
}

/// Forgets a sound made by `AudioServicesCreateSystemSoundID`, with its properties and
/// completion routine (a play under way finishes). `kAudioServicesSystemSoundUnspecifiedError`
/// for an ID that was not created here or was already disposed of.
@discardableResult
public func AudioServicesDisposeSystemSoundID(_ inSystemSoundID: SystemSoundID) -> OSStatus {
    SystemSoundServer.shared.dispose(inSystemSoundID)
}

/// Plays the sound and returns at once; then calls `inCompletionBlock` (for every attempt,
/// played or not) on the serial queue "OpenCapture.AudioToolbox.completion".
public func AudioServicesPlaySystemSoundWithCompletion(_ inSystemSoundID: SystemSoundID, _ inCompletionBlock: (() -> Void)?) {
    SystemSoundServer.shared.play(inSystemSoundID, completion: inCompletionBlock)
}

/// Plays the sound as an alert (on an iPhone it also vibrates; nothing vibrates here) and
/// returns at once; then calls `inCompletionBlock` as `AudioServicesPlaySystemSoundWithCompletion` does.
public func AudioServicesPlayAlertSoundWithCompletion(_ inSystemSoundID: SystemSoundID, _ inCompletionBlock: (() -> Void)?) {
    SystemSoundServer.shared.play(inSystemSoundID, completion: inCompletionBlock)
}

/// Plays the sound and returns at once (the older form of `AudioServicesPlaySystemSoundWithCompletion`).
public func AudioServicesPlaySystemSound(_ inSystemSoundID: SystemSoundID) {
    SystemSoundServer.shared.play(inSystemSoundID, completion: nil)
}

/// Plays the sound as an alert and returns at once (the older form of
/// `AudioServicesPlayAlertSoundWithCompletion`).
public func AudioServicesPlayAlertSound(_ inSystemSoundID: SystemSoundID) {
    SystemSoundServer.shared.play(inSystemSoundID, completion: nil)
}

/// Sets the function called with `inClientData` each time the sound finishes playing,
/// replacing an earlier one; any ID may have one (`kSystemSoundID_Vibrate` too).
///
/// Given a run loop, the function runs on it in `inRunLoopMode` (the default mode when nil).
/// Without one, Apple's runs it on the main run loop, which a Linux program seldom runs:
/// here it runs on the completion queue instead.
@discardableResult
public func AudioServicesAddSystemSoundCompletion(
    _ inSystemSoundID: SystemSoundID, _ inRunLoop: CFRunLoop?, _ inRunLoopMode: CFString?,
    _ inCompletionRoutine: AudioServicesSystemSoundCompletionProc, _ inClientData: UnsafeMutableRawPointer?
) -> OSStatus {
    let mode = inRunLoopMode.map { RunLoop.Mode(rawValue: $0 as String) } ?? .default
    SystemSoundServer.shared.addCompletion(
        inSystemSoundID, runLoop: inRunLoop, mode: mode, proc: inCompletionRoutine, clientData: inClientData)
    return kAudioServicesNoError
}

/// Removes the sound's completion function.
public func AudioServicesRemoveSystemSoundCompletion(_ inSystemSoundID: SystemSoundID) {
    SystemSoundServer.shared.removeCompletion(inSystemSoundID)
}
