// CALayer.h (and CGColor / CGAffineTransform, which layer code uses), spelled as iOS code
// spells them.
import AVFoundation
import Foundation
import QuartzCore
import Testing

private final class LayoutDelegate: NSObject, CALayerDelegate {
    var laidOut = 0
    var displayed = 0
    func layoutSublayers(of layer: CALayer) { laidOut += 1 }
    func display(_ layer: CALayer) { displayed += 1 }
}

/// Touches CALayer's declarations; compiled, never called.
@MainActor
func spellCALayer(_ root: CALayer, session: AVCaptureSession) {
    let preview = AVCaptureVideoPreviewLayer(session: session)
    preview.frame = root.bounds
    preview.videoGravity = .resizeAspectFill
    root.addSublayer(preview)
    root.insertSublayer(CALayer(), at: 0)
    root.insertSublayer(CALayer(), below: preview)
    root.insertSublayer(CALayer(), above: preview)
    root.replaceSublayer(preview, with: CALayer())
    preview.removeFromSuperlayer()
    let layer: CALayer = preview
    let geometry: (CGRect, CGRect, CGPoint, CGPoint, CGFloat) = (layer.frame, layer.bounds, layer.position, layer.anchorPoint, layer.zPosition)
    let look: (Float, Bool, Bool, Bool, Any?, CGColor?, CGColor?, CGFloat, CGFloat) = (
        layer.opacity, layer.isHidden, layer.masksToBounds, layer.isOpaque, layer.contents, layer.backgroundColor,
        layer.borderColor, layer.borderWidth, layer.cornerRadius)
    let tree: ([CALayer]?, CALayer?, String?) = (layer.sublayers, layer.superlayer, layer.name)
    _ = (geometry, look, tree)
    layer.opacity = 0.5
    layer.isHidden = false
    layer.masksToBounds = true
    layer.contents = nil
    layer.contentsGravity = .resizeAspect
    layer.contentsScale = 2
    layer.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    layer.borderColor = CGColor(gray: 1, alpha: 1)
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    layer.setNeedsLayout()
    layer.layoutIfNeeded()
    layer.layoutSublayers()
    let needs: (Bool, Bool) = (layer.needsDisplay(), layer.needsLayout())
    let converted: (CGPoint, CGPoint, CGRect, CGRect) = (
        layer.convert(CGPoint.zero, from: root), layer.convert(CGPoint.zero, to: root),
        layer.convert(CGRect.zero, from: nil), layer.convert(CGRect.zero, to: nil))
    _ = (needs, converted, layer.contains(.zero), CALayer(layer: layer))
    layer.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
    let t: CGAffineTransform = layer.affineTransform().scaledBy(x: 2, y: 2).translatedBy(x: 1, y: 1).rotated(by: 0).inverted()
    _ = (t.isIdentity, CGAffineTransform.identity.concatenating(t), CGPoint.zero.applying(t), CGRect.zero.applying(t), CGSize.zero.applying(t))
    _ = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) == CGAffineTransformIdentity
}

@Suite("CALayer spelling")
struct CALayerSpellingTests {
    @Test("frame is derived from position, bounds and anchorPoint, as in Core Animation")
    func frameGeometry() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        layer.position = CGPoint(x: 200, y: 100)
        #expect(layer.frame == CGRect(x: 150, y: 75, width: 100, height: 50))
        layer.anchorPoint = .zero
        #expect(layer.frame == CGRect(x: 200, y: 100, width: 100, height: 50))
        layer.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        #expect(layer.position == CGPoint(x: 10, y: 20) && layer.bounds.size == CGSize(width: 30, height: 40))
        layer.anchorPoint = CGPoint(x: 0.5, y: 0.5)
        layer.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        #expect(layer.position == CGPoint(x: 25, y: 40))
    }

    @Test("sublayers: add, insert at an index, remove; superlayer follows")
    func tree() {
        let root = CALayer(), a = CALayer(), b = CALayer(), c = CALayer()
        #expect(root.sublayers == nil)
        root.addSublayer(a)
        root.addSublayer(b)
        root.insertSublayer(c, at: 1)
        #expect(root.sublayers?.map(ObjectIdentifier.init) == [a, c, b].map(ObjectIdentifier.init))
        #expect(c.superlayer === root)
        let other = CALayer()
        other.addSublayer(c)
        #expect(root.sublayers?.count == 2 && c.superlayer === other)
        a.removeFromSuperlayer()
        b.removeFromSuperlayer()
        #expect(root.sublayers == nil && a.superlayer == nil)
    }

    @Test("a preview layer is a CALayer in a layer tree; its frame sizes its pictures")
    func previewLayerIsALayer() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
        let preview = AVCaptureVideoPreviewLayer(sessionWithNoConnection: AVCaptureSession())
        preview.frame = root.bounds
        root.addSublayer(preview)
        #expect(preview.superlayer === root)
        #expect(preview.bounds == CGRect(x: 0, y: 0, width: 320, height: 240))
        #expect(preview.position == CGPoint(x: 160, y: 120))
        #expect(preview.videoGravity == .resizeAspect)
        #expect(preview.convert(CGPoint(x: 1, y: 2), to: root) == CGPoint(x: 1, y: 2))
    }

    @Test("layout runs when the size changed; display runs when asked")
    func layoutAndDisplay() {
        let delegate = LayoutDelegate()
        let layer = CALayer()
        layer.delegate = delegate
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.layoutIfNeeded()
        layer.layoutIfNeeded()
        #expect(delegate.laidOut == 1)
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        layer.displayIfNeeded()
        #expect(delegate.displayed == 1)
    }

    @Test("CGAffineTransform maps points as Core Graphics does")
    func affineTransform() {
        let t = CGAffineTransform(translationX: 10, y: 0).scaledBy(x: 2, y: 3)
        #expect(CGPoint(x: 1, y: 1).applying(t) == CGPoint(x: 12, y: 3))
        let r = CGAffineTransform(rotationAngle: .pi / 2)
        let p = CGPoint(x: 1, y: 0).applying(r)
        #expect(abs(p.x) < 1e-12 && abs(p.y - 1) < 1e-12)
        let back = CGPoint(x: 12, y: 3).applying(t.inverted())
        #expect(abs(back.x - 1) < 1e-12 && abs(back.y - 1) < 1e-12)
    }
}
