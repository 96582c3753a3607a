import Foundation
import ImageOps

/// Where a preview layer shows the picture, and how its points map to the capture device's.
///
/// Device points are Apple's: (0, 0) top left and (1, 1) bottom right of the sensor's
/// unrotated landscape image. The picture shown is that image rotated clockwise by the
/// connection's angle and then, if mirrored, flipped left to right (the order the frame
/// router applies them), placed in the bounds by the gravity.
struct PreviewGeometry: Equatable {
    /// The sensor image's size, before rotation.
    var imageSize: CGSize
    /// Clockwise degrees: 0, 90, 180 or 270.
    var rotation: Int
    var mirrored: Bool
    var bounds: CGRect
    var gravity: AVLayerVideoGravity

    /// The picture's size after rotation.
    var displayedSize: CGSize {
        rotation == 90 || rotation == 270 ? CGSize(width: imageSize.height, height: imageSize.width) : imageSize
    }

    /// Where the whole picture lands in layer coordinates (larger than the bounds for
    /// `.resizeAspectFill`, which crops).
    var pictureRect: CGRect {
        let size = displayedSize
        guard size.width > 0, size.height > 0, bounds.width > 0, bounds.height > 0 else { return bounds }
        let scaleX = bounds.width / size.width, scaleY = bounds.height / size.height
        let scale: (x: CGFloat, y: CGFloat)
        switch gravity {
        case .resizeAspectFill: scale = (max(scaleX, scaleY), max(scaleX, scaleY))
        case .resize: scale = (scaleX, scaleY)
        default: scale = (min(scaleX, scaleY), min(scaleX, scaleY))
        }
        let width = size.width * scale.x, height = size.height * scale.y
        return CGRect(x: bounds.midX - width / 2, y: bounds.midY - height / 2, width: width, height: height)
    }

    /// The device point shown at `layerPoint` (outside 0 ... 1 when the point is off the picture).
    func devicePoint(fromLayerPoint layerPoint: CGPoint) -> CGPoint {
        let rect = pictureRect
        guard rect.width > 0, rect.height > 0 else { return .zero }
        var u = (layerPoint.x - rect.minX) / rect.width
        let v = (layerPoint.y - rect.minY) / rect.height
        if mirrored { u = 1 - u }
        // Undo the clockwise turn: a 90° turn shows sensor point (x, y) at (1 − y, x).
        switch rotation {
        case 90: return CGPoint(x: v, y: 1 - u)
        case 180: return CGPoint(x: 1 - u, y: 1 - v)
        case 270: return CGPoint(x: 1 - v, y: u)
        default: return CGPoint(x: u, y: v)
        }
    }

    /// The layer point that shows `devicePoint`.
    func layerPoint(fromDevicePoint devicePoint: CGPoint) -> CGPoint {
        let x = devicePoint.x, y = devicePoint.y
        var (u, v): (CGFloat, CGFloat)
        switch rotation {
        case 90: (u, v) = (1 - y, x)
        case 180: (u, v) = (1 - x, 1 - y)
        case 270: (u, v) = (y, 1 - x)
        default: (u, v) = (x, y)
        }
        if mirrored { u = 1 - u }
        let rect = pictureRect
        return CGPoint(x: rect.minX + u * rect.width, y: rect.minY + v * rect.height)
    }

    /// A layer rectangle in device coordinates: the rectangle its corners map to.
    func deviceRect(fromLayerRect rect: CGRect) -> CGRect {
        Self.spanned(devicePoint(fromLayerPoint: CGPoint(x: rect.minX, y: rect.minY)), devicePoint(fromLayerPoint: CGPoint(x: rect.maxX, y: rect.maxY)))
    }

    /// A device rectangle in layer coordinates: the rectangle its corners map to.
    func layerRect(fromDeviceRect rect: CGRect) -> CGRect {
        Self.spanned(layerPoint(fromDevicePoint: CGPoint(x: rect.minX, y: rect.minY)), layerPoint(fromDevicePoint: CGPoint(x: rect.maxX, y: rect.maxY)))
    }

    private static func spanned(_ a: CGPoint, _ b: CGPoint) -> CGRect {
        CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// For drawing, with `imageSize` the shown picture's pixels (no rotation or mirroring
    /// left to do) and `bounds` the target's: the part of the picture that is visible and
    /// where it goes, in whole pixels; nil when nothing is visible.
    func pixelRects() -> (from: PixelRect, to: PixelRect)? {
        let rect = pictureRect
        let visible = rect.intersection(bounds)
        guard !visible.isNull, visible.width >= 1, visible.height >= 1, rect.width > 0, rect.height > 0 else { return nil }
        let to = PixelRect(
            x: Int(visible.minX.rounded()), y: Int(visible.minY.rounded()),
            width: Int(visible.maxX.rounded()) - Int(visible.minX.rounded()),
            height: Int(visible.maxY.rounded()) - Int(visible.minY.rounded()))
        // The visible part in picture pixels.
        let scaleX = imageSize.width / rect.width, scaleY = imageSize.height / rect.height
        let left = ((visible.minX - rect.minX) * scaleX).rounded(), top = ((visible.minY - rect.minY) * scaleY).rounded()
        let right = ((visible.maxX - rect.minX) * scaleX).rounded(), bottom = ((visible.maxY - rect.minY) * scaleY).rounded()
        let from = PixelRect(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
        guard to.width > 0, to.height > 0, from.width > 0, from.height > 0 else { return nil }
        return (from, to)
    }
}
