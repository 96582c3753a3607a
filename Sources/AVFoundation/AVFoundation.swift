// Linux-only shim: iOS code that says `import AVFoundation` compiles unchanged.
@_exported import OpenCapture
