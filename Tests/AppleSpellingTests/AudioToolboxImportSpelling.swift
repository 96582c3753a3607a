// `import AudioToolbox` on its own, as iOS code may write it: the module and the CF and
// Core Audio names it brings (CFURL, OSStatus) resolve without AVFoundation.
import AudioToolbox
import Foundation
import Testing

/// Plays a sound file with AudioToolbox alone; compiled, never called.
func spellAudioToolboxImport(_ url: URL) -> OSStatus {
    var soundID: SystemSoundID = 0
    let status: OSStatus = AudioServicesCreateSystemSoundID(url as CFURL, &soundID)
    AudioServicesPlaySystemSound(soundID)
    return status
}
