// Linux-only shim for Apple's AudioToolbox: System Sound Services (AudioServices.h), the
// short sounds iOS apps play or put in place of the camera's shutter sound.
//
// Apple's AudioToolbox re-exports CoreFoundation (CFURL) and CoreAudioTypes (OSStatus,
// AudioStreamBasicDescription); here both live in CaptureCore, so `import AudioToolbox`
// alone compiles iOS code that names them.
@_exported import CaptureCore
