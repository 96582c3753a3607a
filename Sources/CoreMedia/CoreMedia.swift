// Linux-only shim: iOS code that says `import CoreMedia` compiles unchanged.
@_exported import OpenCapture
