import Foundation

/// Called when a buffer made by `CVPixelBufferCreateWithBytes` is freed, with the
/// `releaseRefCon` and the base address given.
public typealias CVPixelBufferReleaseBytesCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Void

/// Called when a buffer made by `CVPixelBufferCreateWithPlanarBytes` is freed, with the
/// `releaseRefCon`, the data pointer and size, the plane count and the plane addresses.
public typealias CVPixelBufferReleasePlanarBytesCallback = @convention(c) (
    UnsafeMutableRawPointer?, UnsafeRawPointer?, Int, Int, UnsafeMutablePointer<UnsafeRawPointer?>?
) -> Void

/// Keeps caller-owned memory for a wrapping pixel buffer and calls the release callback
/// when the buffer goes away.
private final class ReleasingOwner {
    private let release: () -> Void
    init(_ release: @escaping () -> Void) { self.release = release }
    deinit { release() }
}

/// Makes a packed pixel buffer (BGRA) over memory you own, without a copy; `releaseCallback`
/// is called with `releaseRefCon` and `baseAddress` when the buffer is freed.
/// A planar format gives `kCVReturnInvalidPixelFormat` (use the planar variant).
@discardableResult
@_disfavoredOverload
public func CVPixelBufferCreateWithBytes(
    _ allocator: AnyObject?, _ width: Int, _ height: Int, _ pixelFormatType: OSType, _ baseAddress: UnsafeMutableRawPointer,
    _ bytesPerRow: Int, _ releaseCallback: CVPixelBufferReleaseBytesCallback?, _ releaseRefCon: UnsafeMutableRawPointer?,
    _ pixelBufferAttributes: [String: Any]?, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard width > 0, height > 0 else { return kCVReturnInvalidSize }
    guard let format = PixelFormat(rawValue: pixelFormatType), format.planeCount == 0 else { return kCVReturnInvalidPixelFormat }
    let geometry = format.planeGeometry(width: width, height: height)[0]
    guard bytesPerRow >= geometry.width * geometry.bytesPerPixel else { return kCVReturnInvalidArgument }
    let owner = ReleasingOwner { releaseCallback?(releaseRefCon, UnsafeRawPointer(baseAddress)) }
    pixelBufferOut.pointee = CVBuffer(
        format: format, width: width, height: height,
        planes: [.init(offset: 0, width: geometry.width, height: geometry.height, bytesPerRow: bytesPerRow)],
        wrapping: baseAddress, byteCount: bytesPerRow * height, owner: owner)
    return kCVReturnSuccess
}

/// Makes a planar pixel buffer (420v, 420f, y420, f420) over planes you own, without a
/// copy; `releaseCallback` is called when the buffer is freed. Plane geometry must match
/// the format (`kCVReturnInvalidArgument` otherwise).
@discardableResult
@_disfavoredOverload
public func CVPixelBufferCreateWithPlanarBytes(
    _ allocator: AnyObject?, _ width: Int, _ height: Int, _ pixelFormatType: OSType, _ dataPtr: UnsafeMutableRawPointer?,
    _ dataSize: Int, _ numberOfPlanes: Int, _ planeBaseAddress: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
    _ planeWidth: UnsafeMutablePointer<Int>, _ planeHeight: UnsafeMutablePointer<Int>, _ planeBytesPerRow: UnsafeMutablePointer<Int>,
    _ releaseCallback: CVPixelBufferReleasePlanarBytesCallback?, _ releaseRefCon: UnsafeMutableRawPointer?,
    _ pixelBufferAttributes: [String: Any]?, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard width > 0, height > 0 else { return kCVReturnInvalidSize }
    guard let format = PixelFormat(rawValue: pixelFormatType), format.planeCount > 0 else { return kCVReturnInvalidPixelFormat }
    guard numberOfPlanes == format.planeCount else { return kCVReturnInvalidArgument }
    let geometry = format.planeGeometry(width: width, height: height)
    var addresses: [UnsafeMutableRawPointer] = []
    for index in 0..<numberOfPlanes {
        guard let address = planeBaseAddress[index], planeWidth[index] == geometry[index].width,
            planeHeight[index] == geometry[index].height,
            planeBytesPerRow[index] >= geometry[index].width * geometry[index].bytesPerPixel
        else { return kCVReturnInvalidArgument }
        addresses.append(address)
    }
    // The planes are described relative to the lowest plane address.
    let base = addresses.min()!
    var planes: [CVBuffer.Plane] = []
    var end = 0
    for index in 0..<numberOfPlanes {
        let offset = addresses[index] - base
        planes.append(.init(offset: offset, width: planeWidth[index], height: planeHeight[index], bytesPerRow: planeBytesPerRow[index]))
        end = max(end, offset + planeBytesPerRow[index] * planeHeight[index])
    }
    let planeCount = numberOfPlanes
    let planePointers = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: planeCount)
    for index in 0..<planeCount { planePointers[index] = UnsafeRawPointer(addresses[index]) }
    let owner = ReleasingOwner {
        releaseCallback?(releaseRefCon, dataPtr.map(UnsafeRawPointer.init), dataSize, planeCount, planePointers)
        planePointers.deallocate()
    }
    pixelBufferOut.pointee = CVBuffer(
        format: format, width: width, height: height, planes: planes, wrapping: base, byteCount: end, owner: owner)
    return kCVReturnSuccess
}

/// The padding around the picture in pixels; OpenCapture's buffers have none (all 0).
public func CVPixelBufferGetExtendedPixels(
    _ pixelBuffer: CVPixelBuffer, _ extraColumnsOnLeft: UnsafeMutablePointer<Int>?, _ extraColumnsOnRight: UnsafeMutablePointer<Int>?,
    _ extraRowsOnTop: UnsafeMutablePointer<Int>?, _ extraRowsOnBottom: UnsafeMutablePointer<Int>?
) {
    extraColumnsOnLeft?.pointee = 0
    extraColumnsOnRight?.pointee = 0
    extraRowsOnTop?.pointee = 0
    extraRowsOnBottom?.pointee = 0
}
