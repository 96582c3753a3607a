import Foundation

/// A barcode or 2-D code a metadata output found: its payload as text and its corners.
open class AVMetadataMachineReadableCodeObject: AVMetadataObject, @unchecked Sendable {
    private let storedCorners: [CGPoint]
    /// The code's corners in the coordinates of `bounds`, counter-clockwise (clockwise
    /// when mirrored) from the code's top left in its own orientation. A 1-D code's
    /// corners bound the part of its bars that was read.
    open var corners: [CGPoint] { storedCorners }
    private let storedStringValue: String?
    /// The payload decoded as text, or nil if it is not text.
    open var stringValue: String? { storedStringValue }

    init(type: ObjectType, time: CMTime, duration: CMTime, corners: [CGPoint], stringValue: String?) {
        self.storedCorners = corners
        self.storedStringValue = stringValue
        super.init(type: type, time: time, duration: duration, bounds: Self.boundingBox(corners))
    }

    /// The symbol's abstract representation (Core Image's descriptor). Nil on Linux: the
    /// decoder does not hand out the error-corrected codewords a descriptor carries, and
    /// Apple documents nil for a code whose representation "could not be detected".
    open var descriptor: CIBarcodeDescriptor? { nil }

    override func transformed(point: (CGPoint) -> CGPoint, rect: (CGRect) -> CGRect) -> AVMetadataObject {
        AVMetadataMachineReadableCodeObject(type: type, time: time, duration: duration, corners: corners.map(point), stringValue: stringValue)
    }

    static func boundingBox(_ points: [CGPoint]) -> CGRect {
        guard let first = points.first else { return .zero }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points.dropFirst() {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// Core Image's abstract description of a barcode symbol (CIBarcodeDescriptor.h), the
/// type of `AVMetadataMachineReadableCodeObject.descriptor`. Linux has no Core Image
/// detectors, so no concrete descriptor is made.
open class CIBarcodeDescriptor: NSObject, @unchecked Sendable {
    override init() { super.init() }
}
