// A CALayer subclass overriding the layer-tree members (compile-only), as layer-hosting code does.
import AVFoundation
import CoreMedia
import Foundation
import QuartzCore
import Testing

/// Overrides every layer-tree member.
final class LayerTreeDouble: CALayer, @unchecked Sendable {
    override var sublayers: [CALayer]? {
        get { super.sublayers }
        set { super.sublayers = newValue }
    }
    override var superlayer: CALayer? { super.superlayer }
    override func addSublayer(_ layer: CALayer) { super.addSublayer(layer) }
    override func insertSublayer(_ layer: CALayer, at idx: UInt32) { super.insertSublayer(layer, at: idx) }
    override func insertSublayer(_ layer: CALayer, below sibling: CALayer?) { super.insertSublayer(layer, below: sibling) }
    override func insertSublayer(_ layer: CALayer, above sibling: CALayer?) { super.insertSublayer(layer, above: sibling) }
    override func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) { super.replaceSublayer(oldLayer, with: newLayer) }
    override func removeFromSuperlayer() { super.removeFromSuperlayer() }
    override func setNeedsDisplay() { super.setNeedsDisplay() }
    override func needsDisplay() -> Bool { super.needsDisplay() }
    override func displayIfNeeded() { super.displayIfNeeded() }
    override func setNeedsLayout() { super.setNeedsLayout() }
    override func needsLayout() -> Bool { super.needsLayout() }
    override func layoutIfNeeded() { super.layoutIfNeeded() }
    override func convert(_ p: CGPoint, from layer: CALayer?) -> CGPoint { super.convert(p, from: layer) }
    override func convert(_ p: CGPoint, to layer: CALayer?) -> CGPoint { super.convert(p, to: layer) }
    override func convert(_ r: CGRect, from layer: CALayer?) -> CGRect { super.convert(r, from: layer) }
    override func convert(_ r: CGRect, to layer: CALayer?) -> CGRect { super.convert(r, to: layer) }
    override func contains(_ p: CGPoint) -> Bool { super.contains(p) }
}

/// Counts the drawing and layout passes the layer tree asks of it.
final class CountingLayer: CALayer, @unchecked Sendable {
    private(set) var displays = 0
    private(set) var layouts = 0
    override func display() { displays += 1 }
    override func layoutSublayers() { layouts += 1 }
}

@Suite("CALayer overrides")
struct CALayerOverrideTests {
    @Test("displayIfNeeded calls a subclass's display once per setNeedsDisplay, as Apple documents")
    func displayOverride() {
        let layer = CountingLayer()
        layer.displayIfNeeded()
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        layer.displayIfNeeded()
        #expect(layer.displays == 1)
    }

    @Test("layoutIfNeeded calls a marked sublayer's layoutSublayers once")
    func layoutOverride() {
        let parent = CALayer()
        let child = CountingLayer()
        parent.addSublayer(child)
        child.setNeedsLayout()
        parent.layoutIfNeeded()
        parent.layoutIfNeeded()
        #expect(child.layouts == 1 && child.superlayer === parent)
    }
}
