// Linux-only shim: iOS code that says `import CoreGraphics` compiles unchanged.
//
// On Apple platforms CGAffineTransform, CGImage, CGColor and CGColorSpace live in
// CoreGraphics and QuartzCore re-exports it. Here they are declared in QuartzCore (with
// CALayer), and CGFloat, CGPoint, CGSize and CGRect in Foundation, so this module
// re-exports both: a file that imports CoreGraphics and QuartzCore (or AVFoundation) sees
// each declaration once, through two paths, and no name is ambiguous.
@_exported import QuartzCore
@_exported import Foundation
