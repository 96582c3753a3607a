import Foundation

/// Core Animation's layer, without the animation and the compositor: Linux has no Core
/// Animation, so this keeps a layer's geometry, appearance and place in a layer tree, as
/// `CALayer` does, for code that builds layer trees (`view.layer.addSublayer(preview)`).
///
/// Geometry is Core Animation's: `bounds` (the layer's own coordinates), `position` (where
/// the `anchorPoint` sits in the superlayer) and `anchorPoint` (unit coordinates of the
/// bounds, default (0.5, 0.5)) are stored, and `frame` is derived from them; setting
/// `frame` sets the bounds' size and the position. Transforms are not applied to `frame`.
///
/// Thread-safe: every property is guarded by a lock (Core Animation asks for the main
/// thread; this does not).
open class CALayer: NSObject, @unchecked Sendable {
    struct State {
        var bounds = CGRect.zero
        var position = CGPoint.zero
        var anchorPoint = CGPoint(x: 0.5, y: 0.5)
        var zPosition: CGFloat = 0
        var opacity: Float = 1
        var isHidden = false
        var masksToBounds = false
        var isOpaque = false
        var contents: Any?
        var contentsGravity = CALayerContentsGravity.resize
        var contentsScale: CGFloat = 1
        var backgroundColor: CGColor?
        var borderColor: CGColor?
        var borderWidth: CGFloat = 0
        var cornerRadius: CGFloat = 0
        var name: String?
        var sublayers: [CALayer]?
        weak var superlayer: CALayer?
        weak var delegate: (any CALayerDelegate)?
        var transform = CGAffineTransform.identity
        var needsDisplay = false
        var needsLayout = false
    }

    let state = LayerLock(State())

    /// A layer with zero bounds at the origin.
    public override init() {
        super.init()
    }

    /// A copy of `layer`'s properties (Core Animation uses it for presentation layers).
    public init(layer: Any) {
        super.init()
        if let other = layer as? CALayer {
            let copy = other.state.withLock { $0 }
            state.withLock {
                $0 = copy
                $0.sublayers = nil
                $0.superlayer = nil
            }
        }
    }

    /// The layer's own coordinate space; its size is the layer's size.
    open var bounds: CGRect {
        get { state.withLock { $0.bounds } }
        set {
            state.withLock {
                if $0.bounds.size != newValue.size { $0.needsLayout = true }
                $0.bounds = newValue
            }
        }
    }

    /// Where the anchor point sits, in the superlayer's coordinates.
    open var position: CGPoint {
        get { state.withLock { $0.position } }
        set { state.withLock { $0.position = newValue } }
    }

    /// The point of the bounds, in unit coordinates, that `position` places (default (0.5, 0.5)).
    open var anchorPoint: CGPoint {
        get { state.withLock { $0.anchorPoint } }
        set { state.withLock { $0.anchorPoint = newValue } }
    }

    /// The layer's rectangle in its superlayer's coordinates, derived from `position`,
    /// `bounds` and `anchorPoint`. Setting it keeps the anchor point and the bounds' origin.
    open var frame: CGRect {
        get {
            state.withLock { s in
                CGRect(
                    x: s.position.x - s.bounds.width * s.anchorPoint.x,
                    y: s.position.y - s.bounds.height * s.anchorPoint.y,
                    width: s.bounds.width, height: s.bounds.height)
            }
        }
        set {
            let rect = newValue.standardized
            state.withLock { s in
                if s.bounds.size != rect.size { s.needsLayout = true }
                s.bounds.size = rect.size
                s.position = CGPoint(x: rect.minX + rect.width * s.anchorPoint.x, y: rect.minY + rect.height * s.anchorPoint.y)
            }
        }
    }

    /// The layer's position on the z axis (orders siblings when composited).
    open var zPosition: CGFloat {
        get { state.withLock { $0.zPosition } }
        set { state.withLock { $0.zPosition = newValue } }
    }

    /// Opacity from 0 (transparent) to 1 (default).
    open var opacity: Float {
        get { state.withLock { $0.opacity } }
        set { state.withLock { $0.opacity = newValue } }
    }

    /// Whether the layer (and its sublayers) is not shown.
    open var isHidden: Bool {
        get { state.withLock { $0.isHidden } }
        set { state.withLock { $0.isHidden = newValue } }
    }

    /// Whether sublayers are clipped to the bounds.
    open var masksToBounds: Bool {
        get { state.withLock { $0.masksToBounds } }
        set { state.withLock { $0.masksToBounds = newValue } }
    }

    /// Whether the layer promises to draw every pixel of its bounds.
    open var isOpaque: Bool {
        get { state.withLock { $0.isOpaque } }
        set { state.withLock { $0.isOpaque = newValue } }
    }

    /// What the layer shows: on Linux typically a `CVPixelBuffer`.
    open var contents: Any? {
        get { state.withLock { $0.contents } }
        set { state.withLock { $0.contents = newValue } }
    }

    /// How `contents` fits the bounds (default `.resize`).
    open var contentsGravity: CALayerContentsGravity {
        get { state.withLock { $0.contentsGravity } }
        set { state.withLock { $0.contentsGravity = newValue } }
    }

    /// Pixels per point of `contents` (default 1).
    open var contentsScale: CGFloat {
        get { state.withLock { $0.contentsScale } }
        set { state.withLock { $0.contentsScale = newValue } }
    }

    /// The colour behind the contents (default nil: none).
    open var backgroundColor: CGColor? {
        get { state.withLock { $0.backgroundColor } }
        set { state.withLock { $0.backgroundColor = newValue } }
    }

    /// The border's colour (default opaque black, as in Core Animation, when nil).
    open var borderColor: CGColor? {
        get { state.withLock { $0.borderColor } }
        set { state.withLock { $0.borderColor = newValue } }
    }

    /// The border's width (default 0).
    open var borderWidth: CGFloat {
        get { state.withLock { $0.borderWidth } }
        set { state.withLock { $0.borderWidth = newValue } }
    }

    /// The radius of the rounded corners (default 0).
    open var cornerRadius: CGFloat {
        get { state.withLock { $0.cornerRadius } }
        set { state.withLock { $0.cornerRadius = newValue } }
    }

    /// A name for finding the layer.
    open var name: String? {
        get { state.withLock { $0.name } }
        set { state.withLock { $0.name = newValue } }
    }

    /// The layer's delegate (held weakly).
    open weak var delegate: (any CALayerDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// The layer's affine transform (Core Animation's `affineTransform()`).
    open func affineTransform() -> CGAffineTransform { state.withLock { $0.transform } }

    /// Sets the layer's affine transform.
    open func setAffineTransform(_ m: CGAffineTransform) { state.withLock { $0.transform = m } }

    /// Updates the contents: asks the delegate's `display(_:)`. Override to draw.
    open func display() {
        state.withLock { $0.needsDisplay = false }
        delegate?.display(self)
    }

    /// Positions the sublayers; by default asks the delegate's `layoutSublayers(of:)`.
    /// Override to lay out.
    open func layoutSublayers() {
        delegate?.layoutSublayers(of: self)
    }

    // Members the extension files implement, open here as Apple's are (Swift cannot
    // override what an extension declares); each forwards to its `…Backing`.

    // MARK: CALayer+Tree

    /// The layer's sublayers, back to front; nil when it has none.
    open var sublayers: [CALayer]? {
        get { sublayersBacking }
        set { sublayersBacking = newValue }
    }

    /// The layer this one is a sublayer of.
    open var superlayer: CALayer? { superlayerBacking }

    /// Appends `layer` to the sublayers, removing it from its previous superlayer.
    open func addSublayer(_ layer: CALayer) { addSublayerBacking(layer) }

    /// Inserts `layer` at `idx` of the sublayers (clamped to the end).
    open func insertSublayer(_ layer: CALayer, at idx: UInt32) { insertSublayerBacking(layer, at: idx) }

    /// Inserts `layer` just below `sibling` (at the back when `sibling` is nil or not a sublayer).
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) { insertSublayerBacking(layer, below: sibling) }

    /// Inserts `layer` just above `sibling` (at the front when `sibling` is nil or not a sublayer).
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) { insertSublayerBacking(layer, above: sibling) }

    /// Puts `newLayer` where `oldLayer` is among the sublayers.
    open func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) { replaceSublayerBacking(oldLayer, with: newLayer) }

    /// Takes the layer out of its superlayer's sublayers.
    open func removeFromSuperlayer() { removeFromSuperlayerBacking() }

    /// Marks the contents as needing to be redrawn by `display()`.
    open func setNeedsDisplay() { setNeedsDisplayBacking() }

    /// Whether `setNeedsDisplay()` was called since the last `display()`.
    open func needsDisplay() -> Bool { needsDisplayBacking() }

    /// Redraws now if marked.
    open func displayIfNeeded() { displayIfNeededBacking() }

    /// Marks the sublayers as needing layout (also done when the size changes).
    open func setNeedsLayout() { setNeedsLayoutBacking() }

    /// Whether layout is pending.
    open func needsLayout() -> Bool { needsLayoutBacking() }

    /// Lays out now if marked, then the sublayers.
    open func layoutIfNeeded() { layoutIfNeededBacking() }

    /// `p` in `layer`'s coordinates, converted to this layer's (nil = the same layer tree's root).
    open func convert(_ p: CGPoint, from layer: CALayer?) -> CGPoint { convertBacking(p, from: layer) }

    /// `p` in this layer's coordinates, converted to `layer`'s.
    open func convert(_ p: CGPoint, to layer: CALayer?) -> CGPoint { convertBacking(p, to: layer) }

    /// `r` in `layer`'s coordinates, converted to this layer's.
    open func convert(_ r: CGRect, from layer: CALayer?) -> CGRect { convertBacking(r, from: layer) }

    /// `r` in this layer's coordinates, converted to `layer`'s.
    open func convert(_ r: CGRect, to layer: CALayer?) -> CGRect { convertBacking(r, to: layer) }

    /// Whether `p`, in this layer's coordinates, is inside the bounds.
    open func contains(_ p: CGPoint) -> Bool { containsBacking(p) }
}
