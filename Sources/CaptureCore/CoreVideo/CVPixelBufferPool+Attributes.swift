import Foundation

/// Options of `CVPixelBufferPoolFlush`.
public struct CVPixelBufferPoolFlushFlags: OptionSet, Sendable {
    public let rawValue: CVOptionFlags
    public init(rawValue: CVOptionFlags) { self.rawValue = rawValue }
    /// Free only the buffers beyond the minimum count. The corresponding C constant is
    /// `kCVPixelBufferPoolFlushExcessBuffers`.
    public static let excessBuffers = CVPixelBufferPoolFlushFlags(rawValue: 1)
}

/// Free only the buffers beyond the minimum count.
public let kCVPixelBufferPoolFlushExcessBuffers = CVPixelBufferPoolFlushFlags.excessBuffers

/// The attributes of the buffers the pool makes: width, height and pixel format.
public func CVPixelBufferPoolGetPixelBufferAttributes(_ pool: CVPixelBufferPool) -> [String: Any]? {
    [
        kCVPixelBufferWidthKey: pool.width, kCVPixelBufferHeightKey: pool.height,
        kCVPixelBufferPixelFormatTypeKey: pool.format.rawValue,
    ]
}

/// The pool's own attributes: its minimum (and, when set, maximum) buffer count and its
/// maximum buffer age in seconds (0: buffers never age out).
public func CVPixelBufferPoolGetAttributes(_ pool: CVPixelBufferPool) -> [String: Any]? {
    var attributes: [String: Any] = [kCVPixelBufferPoolMinimumBufferCountKey: pool.minimumBufferCount]
    if pool.maximumBufferCount != .max { attributes[kCVPixelBufferPoolMaximumBufferCountKey] = pool.maximumBufferCount }
    attributes[kCVPixelBufferPoolMaximumBufferAgeKey] = Double(pool.maximumBufferAge ?? 0) / 1e9
    return attributes
}

/// Takes a buffer from the pool; with `kCVPixelBufferPoolAllocationThresholdKey` in
/// `auxAttributes`, refuses (`kCVReturnWouldExceedAllocationThreshold`) once the pool
/// owns that many buffers and none is free.
@discardableResult
@_disfavoredOverload
public func CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(
    _ allocator: AnyObject?, _ pixelBufferPool: CVPixelBufferPool, _ auxAttributes: [String: Any]?,
    _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    let threshold = integer(auxAttributes?[kCVPixelBufferPoolAllocationThresholdKey]) ?? .max
    guard let buffer = pixelBufferPool.dequeue(limit: threshold) else { return kCVReturnWouldExceedAllocationThreshold }
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

/// Pool attribute: how long (seconds, default 1; 0: forever) a buffer may sit unused in the
/// pool before it is freed (counted from when it was last handed out, checked when the pool
/// is used).
public let kCVPixelBufferPoolMaximumBufferAgeKey = "MaximumBufferAge"

/// Aux attribute: how many buffers the pool may own before refusing.
public let kCVPixelBufferPoolAllocationThresholdKey = "kCVPixelBufferPoolAllocationThresholdKey"
