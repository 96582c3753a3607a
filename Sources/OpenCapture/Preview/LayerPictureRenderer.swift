import Foundation
import ImageOps

/// Draws a picture into a layer's `contents` the way Apple's video layers show it: turned
/// and mirrored as asked, then placed in the layer's bounds (one pixel per point) by the
/// gravity, on an opaque BGRA buffer. Shared by the preview layer and the sample-buffer
/// display layer; each keeps one and uses it on its render queue only.
struct LayerPictureRenderer {
    private var turnedPool: CVPixelBufferPool?
    private var picturePool: CVPixelBufferPool?

    /// The picture for a layer of `size` points, or nil when there is nothing to show
    /// (an empty layer) or the conversion failed.
    mutating func render(
        _ buffer: CVPixelBuffer, rotation degrees: Int = 0, mirrored: Bool = false, size: CGSize, gravity: AVLayerVideoGravity
    ) -> CVPixelBuffer? {
        let width = Int(size.width.rounded()), height = Int(size.height.rounded())
        guard width > 0, height > 0 else { return nil }
        // The picture as shown: rotated and mirrored, in BGRA.
        var turned = buffer
        let rotation = Rotation(rawValue: degrees) ?? .none
        if rotation != .none || mirrored || buffer.format != .bgra {
            let turnedSize = rotation.rotatedSize(width: buffer.width, height: buffer.height)
            turnedPool = Self.pool(turnedPool, width: turnedSize.width, height: turnedSize.height)
            guard let target = turnedPool?.dequeue(), ImageTransform.transform(buffer, into: target, rotation: rotation, mirrored: mirrored)
            else { return nil }
            turned = target
        }
        picturePool = Self.pool(picturePool, width: width, height: height)
        guard let picture = picturePool?.dequeue() else { return nil }
        let placement = PreviewGeometry(
            imageSize: CGSize(width: turned.width, height: turned.height), rotation: 0, mirrored: false,
            bounds: CGRect(x: 0, y: 0, width: width, height: height), gravity: gravity)
        guard let (from, to) = placement.pixelRects(), ImageTransform.place(turned, from: from, into: picture, to: to) else { return nil }
        return picture
    }

    private static func pool(_ current: CVPixelBufferPool?, width: Int, height: Int) -> CVPixelBufferPool {
        if let current, current.width == width, current.height == height { return current }
        return CVPixelBufferPool(format: .bgra, width: width, height: height, minimumBufferCount: 2, maximumBufferCount: 4)
    }
}
