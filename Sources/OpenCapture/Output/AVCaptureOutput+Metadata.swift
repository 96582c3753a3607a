import Foundation

extension AVCaptureOutput {
    /// A metadata object (in metadata-output coordinates) with its bounds and corners in this
    /// output's coordinates through `connection` (its pixels, rotated and mirrored as the
    /// connection says), as `outputRectConverted(fromMetadataOutputRect:)` converts rectangles.
    /// Nil if `connection` is not this output's video connection.
    public func transformedMetadataObject(for metadataObject: AVMetadataObject, connection: AVCaptureConnection) -> AVMetadataObject? {
        guard connection.output === self, connection.inputPorts.contains(where: { $0.mediaType == .video }), let geometry = outputGeometry else {
            return nil
        }
        return metadataObject.transformed(point: geometry.layerPoint(fromDevicePoint:), rect: geometry.layerRect(fromDeviceRect:))
    }
}
