// Linux-only shim: iOS code that says `import CoreVideo` compiles unchanged.
@_exported import OpenCapture
