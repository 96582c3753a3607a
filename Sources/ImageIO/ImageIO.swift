// Linux-only shim: iOS code that says `import ImageIO` compiles unchanged. It declares what
// capture code uses of Image I/O: `CGImagePropertyOrientation` and the `kCGImageProperty…`
// keys of photo metadata (`AVCapturePhoto.metadata`, `AVCapturePhotoSettings.metadata`).
//
// As Apple's ImageIO imports CoreGraphics and Core Foundation, this module re-exports
// CoreGraphics and the Core Foundation names its keys are typed with.
@_exported import CoreGraphics
@_exported import typealias CaptureCore.CFString
@_exported import typealias CaptureCore.CFDictionary
