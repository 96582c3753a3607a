// AudioServices.h's types and constants, with Apple's names and values.

/// A system sound object: a sound file registered with `AudioServicesCreateSystemSoundID`,
/// or one of the system's own sounds (1000–4095 on iOS: 1108 is the camera shutter).
public typealias SystemSoundID = UInt32

/// A System Sound Services property (`kAudioServicesPropertyIsUISound` …).
public typealias AudioServicesPropertyID = UInt32

/// The function `AudioServicesAddSystemSoundCompletion` calls when a sound has finished:
/// the sound and the client data given with it.
public typealias AudioServicesSystemSoundCompletionProc = @convention(c) (SystemSoundID, UnsafeMutableRawPointer?) -> Void

// MARK: Errors

/// No error occurred.
public let kAudioServicesNoError: OSStatus = 0
/// The property is not supported ('pty?').
public let kAudioServicesUnsupportedPropertyError: OSStatus = 0x7074_793F
/// The size of the property data was not correct ('!siz').
public let kAudioServicesBadPropertySizeError: OSStatus = 0x2173_697A
/// The size of the specifier data was not correct ('!spc').
public let kAudioServicesBadSpecifierSizeError: OSStatus = 0x2173_7063
/// An unspecified system sound error: here, a file that is missing or holds no audio
/// FFmpeg decodes, or a sound ID that was never created (or was disposed of).
public let kAudioServicesSystemSoundUnspecifiedError: OSStatus = -1500
/// The system sound client message timed out (never returned here: there is no server).
public let kAudioServicesSystemSoundClientTimedOutError: OSStatus = -1501
/// The sound lasts longer than a system sound may (30 seconds).
public let kAudioServicesSystemSoundExceededMaximumDurationError: OSStatus = -1502

// MARK: Sound IDs

/// Vibrates the phone. There is no vibrator here: playing it does nothing but call the
/// completion.
public let kSystemSoundID_Vibrate: SystemSoundID = 0x0000_0FFF
/// The alert sound the user chose (macOS): played as a muted phone plays the system's own
/// sounds, calling the completion only.
public let kSystemSoundID_UserPreferredAlert: SystemSoundID = 0x0000_1000
/// Flashes the screen (macOS): nothing to flash here; the completion is called.
public let kSystemSoundID_FlashScreen: SystemSoundID = 0x0000_0FFE
/// The old name of `kSystemSoundID_UserPreferredAlert`.
@available(*, deprecated, renamed: "kSystemSoundID_UserPreferredAlert")
public let kUserPreferredAlert: SystemSoundID = kSystemSoundID_UserPreferredAlert

// MARK: Properties

/// A `UInt32`, 1 (the default) when the sound follows the user's "sound effects" setting.
/// Linux has no such setting: the value is kept and read back, and changes nothing.
public let kAudioServicesPropertyIsUISound: AudioServicesPropertyID = 0x6973_7569
/// A `UInt32`, 1 when the sound should finish playing even if the app goes away (default 0).
/// Kept and read back; the sound plays in this process, so it ends with it either way.
public let kAudioServicesPropertyCompletePlaybackIfAppDies: AudioServicesPropertyID = 0x6966_6469
