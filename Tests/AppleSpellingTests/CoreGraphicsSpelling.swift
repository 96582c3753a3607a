// `import CoreGraphics` as camera code writes it (react-native-vision-camera's
// FrameCoordinateSystemConverter and CG+ converters, Lumina's focus handler), beside
// `import QuartzCore`: on Apple platforms QuartzCore re-exports CoreGraphics, and here both
// reach the same declarations, so no name is ambiguous in a file that imports both.
import CoreGraphics
import QuartzCore
import Testing

/// Touches the CG types through CoreGraphics; compiled, never called.
func spellCoreGraphics(_ image: CGImage) {
    let angle: CGFloat = .pi / 2
    let transform: CGAffineTransform = CGAffineTransform(rotationAngle: angle)
        .concatenating(CGAffineTransform(scaleX: -1, y: 1))
        .translatedBy(x: 10, y: 20)
        .scaledBy(x: 2, y: 2)
        .rotated(by: angle)
        .inverted()
    let identity: CGAffineTransform = .identity
    let legacy: CGAffineTransform = CGAffineTransformIdentity
    let entries: (CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat) = (transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty)
    let point: CGPoint = CGPoint(x: 0.5, y: 0.5).applying(transform)
    let size: CGSize = CGSize(width: 1920, height: 1080).applying(transform)
    let rect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1).applying(transform)
    let isIdentity: Bool = identity.isIdentity
    let color: CGColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    let components: [CGFloat]? = color.components
    let space: CGColorSpace = CGColorSpaceCreateDeviceRGB()
    let named: CGColorSpace? = CGColorSpace(name: CGColorSpace.sRGB)
    let imageFacts: (Int, Int, Int, Int, CGColorSpace?) = (image.width, image.height, image.bitsPerPixel, image.bytesPerRow, image.colorSpace)
    let layer: CALayer = CALayer()
    layer.setAffineTransform(transform)
    _ = (legacy, entries, point, size, rect, isIdentity, components, space, named, imageFacts)
}

@Suite("CoreGraphics spelling")
struct CoreGraphicsSpellingTests {
    @Test("a quarter turn maps points as Core Graphics does, with QuartzCore imported too")
    func quarterTurn() {
        let turn = CGAffineTransform(rotationAngle: .pi / 2)
        let point = CGPoint(x: 1, y: 0).applying(turn)
        #expect(abs(point.x) < 1e-9 && abs(point.y - 1) < 1e-9)
        #expect(abs(turn.concatenating(turn.inverted()).a - 1) < 1e-9)
        #expect(CGAffineTransform.identity == CGAffineTransformIdentity)
    }

    @Test("vision-camera's front-camera mirroring transform flips x about the middle")
    func mirroring() {
        let mirror = CGAffineTransform(scaleX: -1, y: 1).translatedBy(x: -1, y: 0)
        let point = CGPoint(x: 0.25, y: 0.5).applying(mirror)
        #expect(abs(point.x - 0.75) < 1e-9 && point.y == 0.5)
    }

    @Test("colours and colour spaces through CoreGraphics")
    func colours() {
        let color = CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
        #expect(color.numberOfComponents == 4 && color.alpha == 1)
        #expect(CGColorSpace(name: CGColorSpace.sRGB)?.model == .rgb)
    }
}
