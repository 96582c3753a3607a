import CaptureCore
import Foundation

/// Takes frames for a metadata output on the capture thread and reads them on the output's
/// own queue, one at a time: while a frame is being read, newer frames pass by (a slow
/// detector skips frames and never delays video). Only the rectangle of interest is
/// copied and read.
///
/// Threads: `offer` comes on the capture thread and never waits; detection runs on
/// `queue`; the delegate on the app's queue, with no lock held. In virtual time the
/// capture thread waits (`waitUntilIdle`) until the last frame's objects were delivered.
/// `stop` waits for a detection in flight, never for the delegate.
final class MetadataScanner: @unchecked Sendable {
    /// One frame's settings, snapshotted from the output. Unchecked: the delegate is only
    /// called on its own queue.
    struct Request: @unchecked Sendable {
        var types: Set<AVMetadataObject.ObjectType>
        var rectOfInterest: CGRect
        var delegate: (any AVCaptureMetadataOutputObjectsDelegate)?
        /// The synchronizer that took the output over (then `delegate` is nil).
        var synchronizer: AVCaptureDataOutputSynchronizer? = nil
        var queue: DispatchQueue
    }

    private struct State {
        var busy = false
        /// Frames taken and not yet read through (copying or detecting): `stop` waits for
        /// them, so no detector runs after a session stops (a process that exits next would
        /// tear OpenCV down under it). A count, not a flag: a frame's delivery frees `busy`
        /// on the delegate's queue before its detection block has ended, so the next frame
        /// can be taken while the previous one still counts, and its end must not clear it.
        var detecting = 0
        var stopped = false
        /// Whether the last delivery held objects (an empty array follows when they go).
        var hadObjects = false
        var framesRead = 0
        var framesSkipped = 0
        /// Face numbers; touched on `queue` (under the lock, which `begin` also takes).
        var faces = FaceTracker()
    }

    private let state = Mutex(State())
    private let idle = NSCondition()
    private let queue = DispatchQueue(label: "OpenCapture.metadata")
    /// The copied pixels, owned by whoever set `busy` (the capture thread, then `queue`).
    private let scratch = ScanScratch()
    /// Used on `queue` only.
    private let faceReader = FaceReader()
    /// A stand-in for the code and face readers, given the types asked for (tests inject a
    /// slow one to see what `stop` waits for); nil reads with zxing-cpp and OpenCV.
    private let detector: (@Sendable (Set<AVMetadataObject.ObjectType>) -> [AVMetadataObject])?

    init(detector: (@Sendable (Set<AVMetadataObject.ObjectType>) -> [AVMetadataObject])? = nil) {
        self.detector = detector
    }

    /// Frames read and frames passed by while busy, since the output was made.
    var counts: (read: Int, skipped: Int) { state.withLock { ($0.framesRead, $0.framesSkipped) } }

    /// A run starts.
    func begin() {
        state.withLock {
            $0.stopped = false
            $0.faces.forgetFaces()
        }
    }

    /// Takes the frame if the detector is free. Capture thread.
    func offer(_ buffer: CVPixelBuffer, metadata: FrameMetadata, connection: AVCaptureConnection, output: AVCaptureMetadataOutput) {
        guard let request = output.scanRequest else { return }
        let taken = state.withLock { s -> Bool in
            guard !s.busy, !s.stopped else {
                if s.busy { s.framesSkipped += 1 }
                return false
            }
            s.busy = true
            s.detecting += 1
            return true
        }
        guard taken else { return }
        guard let crop = scratch.copy(buffer, deviceRect: request.rectOfInterest, mirroredByDevice: metadata.isMirroredByDevice) else {
            detected()
            finish(hadObjects: nil)
            return
        }
        queue.async { [self] in
            // Whatever path the delivery takes below, detection is over when this block ends.
            defer { detected() }
            let objects = detector?(request.types) ?? read(crop: crop, types: request.types, metadata: metadata)
            if let synchronizer = request.synchronizer {
                request.queue.async { [self] in
                    if !state.withLock({ $0.stopped }) {
                        synchronizer.receive(
                            AVCaptureSynchronizedMetadataObjectData(metadataObjects: objects, timestamp: metadata.presentationTime),
                            span: metadata.frameDuration, from: output)
                    }
                    finish(hadObjects: !objects.isEmpty)
                }
                return
            }
            let hadObjects = state.withLock { $0.hadObjects }
            guard !objects.isEmpty || hadObjects else {
                finish(hadObjects: false)
                return
            }
            request.queue.async { [self] in
                if !state.withLock({ $0.stopped }) {
                    request.delegate?.metadataOutput(output, didOutput: objects, from: connection)
                }
                finish(hadObjects: !objects.isEmpty)
            }
        }
    }

    /// The codes (zxing-cpp) and faces (OpenCV, when asked for) in the copied pixels. On `queue`.
    private func read(crop: ScanScratch.Crop, types: Set<AVMetadataObject.ObjectType>, metadata: FrameMetadata) -> [AVMetadataObject] {
        let symbols = BarcodeReader.read(
            scratch.pixels, width: crop.width, height: crop.height, bytesPerRow: scratch.bytesPerRow, layout: crop.layout, types: types)
        let codes: [AVMetadataObject] = symbols.map { symbol in
            // Counter-clockwise from the top left (zxing-cpp goes clockwise), in device coordinates.
            let order = [0, 3, 2, 1].map { symbol.corners[$0] }
            return AVMetadataMachineReadableCodeObject(
                type: symbol.type, time: metadata.presentationTime, duration: metadata.frameDuration,
                corners: order.map(crop.devicePoint), stringValue: symbol.text)
        }
        return codes + (types.contains(.face) ? faceObjects(crop: crop, metadata: metadata) : [])
    }

    /// The faces in the copied pixels, numbered by the tracker, in device coordinates. On `queue`.
    private func faceObjects(crop: ScanScratch.Crop, metadata: FrameMetadata) -> [AVMetadataObject] {
        let faces = faceReader.read(scratch.pixels, width: crop.width, height: crop.height, bytesPerRow: scratch.bytesPerRow, layout: crop.layout)
        let bounds = faces.map { face in
            let half = face.size / 2
            let corners = [CGPoint(x: face.center.x - half, y: face.center.y - half), CGPoint(x: face.center.x + half, y: face.center.y + half)]
            return AVMetadataMachineReadableCodeObject.boundingBox(corners.map(crop.devicePoint))
        }
        let ids = state.withLock { $0.faces.identify(bounds) }
        return faces.indices.map { index in
            // The device's own mirroring flips the picture, so a face's roll turns the other way.
            let roll = metadata.isMirroredByDevice ? (360 - faces[index].roll) % 360 : faces[index].roll
            let yaw = metadata.isMirroredByDevice ? (360 - faces[index].yaw) % 360 : faces[index].yaw
            return AVMetadataFaceObject(
                faceID: ids[index], roll: CGFloat(roll), yaw: CGFloat(yaw), time: metadata.presentationTime, duration: metadata.frameDuration,
                bounds: bounds[index])
        }
    }

    /// The frame taken has been read through: wakes a `stop` waiting for it.
    private func detected() {
        state.withLock { $0.detecting -= 1 }
        wake()
    }

    private func finish(hadObjects: Bool?) {
        state.withLock {
            $0.busy = false
            if let hadObjects {
                $0.hadObjects = hadObjects
                $0.framesRead += 1
            }
        }
        idle.lock()
        idle.broadcast()
        idle.unlock()
    }

    /// Virtual time: blocks until the frame being read was delivered, or `giveUp` holds
    /// (checked again on each `wake()`).
    func waitUntilIdle(unless giveUp: () -> Bool) {
        idle.lock()
        defer { idle.unlock() }
        while state.withLock({ $0.busy }) && !giveUp() { idle.wait() }
    }

    /// The run stops: no delivery starts after this, waiters are released, and it returns
    /// once no detection is in flight (a delivery already queued to the delegate's queue
    /// is not waited for: the caller may be on that queue; it sees `stopped` and skips).
    func stop() {
        state.withLock {
            $0.stopped = true
            $0.hadObjects = false
        }
        wake()
        idle.lock()
        defer { idle.unlock() }
        while state.withLock({ $0.detecting > 0 }) { idle.wait() }
    }

    func wake() {
        idle.lock()
        idle.broadcast()
        idle.unlock()
    }
}

/// The pixels of a frame's rectangle of interest, copied off the device's buffer so the
/// detector never holds one of the device's pool buffers.
final class ScanScratch: @unchecked Sendable {
    private(set) var pixels: UnsafeMutableRawPointer = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 64)
    private var capacity = 1
    private(set) var bytesPerRow = 0

    /// Where the copy came from, to map what is found back to device coordinates.
    struct Crop {
        var width: Int
        var height: Int
        var layout: BarcodeReader.Layout
        /// The copy's origin in the buffer, and the buffer's size, in pixels.
        var originX: Int
        var originY: Int
        var bufferWidth: Int
        var bufferHeight: Int
        var mirroredByDevice: Bool

        /// A point in the copy's pixels in device coordinates (0 ... 1, unmirrored).
        func devicePoint(_ p: CGPoint) -> CGPoint {
            let x = (p.x + CGFloat(originX)) / CGFloat(bufferWidth)
            let y = (p.y + CGFloat(originY)) / CGFloat(bufferHeight)
            return CGPoint(x: mirroredByDevice ? 1 - x : x, y: y)
        }
    }

    deinit { pixels.deallocate() }

    /// Copies the part of plane 0 under `deviceRect` (device coordinates); nil for an empty rectangle.
    func copy(_ buffer: CVPixelBuffer, deviceRect: CGRect, mirroredByDevice: Bool) -> Crop? {
        let layout: BarcodeReader.Layout
        let bytesPerPixel: Int
        switch buffer.format {
        case .bgra: (layout, bytesPerPixel) = (.bgrx, 4)
        case .yuv420TenBitBiPlanarVideoRange, .yuv420TenBitBiPlanarFullRange: (layout, bytesPerPixel) = (.luma16, 2)
        default: (layout, bytesPerPixel) = (.luma8, 1)
        }
        let width = buffer.width, height = buffer.height
        // Only the part of the rectangle of interest inside the picture is searched; a
        // rectangle beside it (or not a number) searches nothing.
        let components = [deviceRect.origin.x, deviceRect.origin.y, deviceRect.size.width, deviceRect.size.height]
        guard !components.contains(where: \.isNaN) else { return nil }
        let deviceRect = deviceRect.standardized.intersection(CGRect(x: 0, y: 0, width: 1, height: 1))
        guard !deviceRect.isNull else { return nil }
        // The buffer is the sensor image, flipped left to right if the device mirrored it.
        let minX = mirroredByDevice ? 1 - deviceRect.maxX : deviceRect.minX
        let x0 = max(0, min(width, Int((minX * CGFloat(width)).rounded(.down))))
        let y0 = max(0, min(height, Int((deviceRect.minY * CGFloat(height)).rounded(.down))))
        let x1 = max(x0, min(width, Int(((minX + deviceRect.width) * CGFloat(width)).rounded(.up))))
        let y1 = max(y0, min(height, Int((deviceRect.maxY * CGFloat(height)).rounded(.up))))
        let cropWidth = x1 - x0, cropHeight = y1 - y0
        guard cropWidth > 0, cropHeight > 0 else { return nil }
        let rowBytes = cropWidth * bytesPerPixel
        if rowBytes * cropHeight > capacity {
            pixels.deallocate()
            capacity = rowBytes * cropHeight
            pixels = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 64)
        }
        bytesPerRow = rowBytes
        let source = buffer.planeAddress(0), sourceStride = buffer.bytesPerRow(0)
        for row in 0..<cropHeight {
            (pixels + row * rowBytes).copyMemory(from: source + (y0 + row) * sourceStride + x0 * bytesPerPixel, byteCount: rowBytes)
        }
        return Crop(
            width: cropWidth, height: cropHeight, layout: layout, originX: x0, originY: y0, bufferWidth: width, bufferHeight: height,
            mirroredByDevice: mirroredByDevice)
    }
}
