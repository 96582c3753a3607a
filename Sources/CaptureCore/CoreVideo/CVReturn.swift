// The CVReturn.h codes not already declared with the pixel-buffer functions that return
// them (PixelFormats.swift), with Apple's values.

/// The first code of Core Video's range. The corresponding C constant is `kCVReturnFirst`.
public let kCVReturnFirst: CVReturn = -6660
/// An otherwise undefined error.
public let kCVReturnError: CVReturn = kCVReturnFirst
/// The operation or option is not supported.
public let kCVReturnUnsupported: CVReturn = -6663
/// A display ID was invalid (display links; not used on iOS).
public let kCVReturnInvalidDisplay: CVReturn = -6670
/// The display link is already running.
public let kCVReturnDisplayLinkAlreadyRunning: CVReturn = -6671
/// The display link is not running.
public let kCVReturnDisplayLinkNotRunning: CVReturn = -6672
/// The display link has no output callback.
public let kCVReturnDisplayLinkCallbacksNotSet: CVReturn = -6673
/// A pixel buffer attribute was invalid or unsupported.
public let kCVReturnInvalidPixelBufferAttributes: CVReturn = -6682
/// The pixel buffer is not compatible with OpenGL.
public let kCVReturnPixelBufferNotOpenGLCompatible: CVReturn = -6683
/// The pixel buffer is not compatible with Metal.
public let kCVReturnPixelBufferNotMetalCompatible: CVReturn = -6684
/// The pool could not allocate a buffer.
public let kCVReturnPoolAllocationFailed: CVReturn = -6690
/// A pool attribute was invalid.
public let kCVReturnInvalidPoolAttributes: CVReturn = -6691
/// A scan has not completed yet; try again.
public let kCVReturnRetry: CVReturn = -6692
/// The last code of Core Video's range.
public let kCVReturnLast: CVReturn = -6699
