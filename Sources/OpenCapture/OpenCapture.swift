// The public Core Media and Core Video types live in CaptureCore; re-export them so
// `import OpenCapture` (and the AVFoundation, CoreMedia and CoreVideo shims) see them.
@_exported import CaptureCore
// CALayer, CGColor, CGAffineTransform: Apple's AVFoundation re-exports QuartzCore too.
@_exported import QuartzCore
@_exported import Foundation
