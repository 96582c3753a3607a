// Empty on purpose. The Swift toolchain declares `_Testing_CoreGraphics` as the
// cross-import overlay of Swift Testing and CoreGraphics
// (usr/lib/swift/linux/Testing.swiftcrossimport/CoreGraphics.swiftoverlay) but ships it only
// on Apple platforms, where it makes CGImage attachable. A file that imports Testing and a
// module named CoreGraphics (directly, or through AVFoundation and ImageIO, which re-export
// it) makes the compiler load that overlay, so without this module such a test file fails
// with "no such module '_Testing_CoreGraphics'". The CoreGraphics target depends on this one,
// so it is built wherever CoreGraphics is, in this package's tests and in an app's.
