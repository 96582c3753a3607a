// Linux-only shim: iOS code that says `import AVFoundation` compiles unchanged.
@_exported import OpenCapture
// Apple's AVFoundation reaches ImageIO (through CoreImage), so camera code uses
// CGImagePropertyOrientation and the kCGImageProperty keys without importing it.
@_exported import ImageIO
// `import AVFoundation` brings AudioToolbox on iOS: apps play (or replace) the shutter sound
// with System Sound Services without importing it.
@_exported import AudioToolbox
