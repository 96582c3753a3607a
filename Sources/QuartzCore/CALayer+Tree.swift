import Foundation

extension CALayer {
    /// The layer's sublayers, back to front; nil when it has none.
    public var sublayers: [CALayer]? {
        get { state.withLock { $0.sublayers } }
        set {
            let old = state.withLock { $0.sublayers } ?? []
            for layer in old { layer.state.withLock { $0.superlayer = nil } }
            for layer in newValue ?? [] {
                layer.removeFromSuperlayer()
                layer.state.withLock { $0.superlayer = self }
            }
            state.withLock { $0.sublayers = newValue }
        }
    }

    /// The layer this one is a sublayer of.
    public var superlayer: CALayer? { state.withLock { $0.superlayer } }

    /// Appends `layer` to the sublayers, removing it from its previous superlayer.
    public func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(state.withLock { $0.sublayers?.count ?? 0 }))
    }

    /// Inserts `layer` at `idx` of the sublayers (clamped to the end).
    public func insertSublayer(_ layer: CALayer, at idx: UInt32) {
        guard layer !== self else { return }
        layer.removeFromSuperlayer()
        layer.state.withLock { $0.superlayer = self }
        state.withLock {
            var list = $0.sublayers ?? []
            list.insert(layer, at: min(Int(idx), list.count))
            $0.sublayers = list
        }
    }

    /// Inserts `layer` just below `sibling` (at the back when `sibling` is nil or not a sublayer).
    public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        let index = sibling.flatMap { s in state.withLock { $0.sublayers?.firstIndex { $0 === s } } } ?? 0
        insertSublayer(layer, at: UInt32(index))
    }

    /// Inserts `layer` just above `sibling` (at the front when `sibling` is nil or not a sublayer).
    public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        let count = state.withLock { $0.sublayers?.count ?? 0 }
        let index = sibling.flatMap { s in state.withLock { $0.sublayers?.firstIndex { $0 === s } } }.map { $0 + 1 } ?? count
        insertSublayer(layer, at: UInt32(index))
    }

    /// Puts `newLayer` where `oldLayer` is among the sublayers.
    public func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard let index = state.withLock({ $0.sublayers?.firstIndex { $0 === oldLayer } }) else { return }
        oldLayer.removeFromSuperlayer()
        insertSublayer(newLayer, at: UInt32(index))
    }

    /// Takes the layer out of its superlayer's sublayers.
    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.state.withLock { s in
            s.sublayers?.removeAll { $0 === self }
            if s.sublayers?.isEmpty == true { s.sublayers = nil }
        }
        state.withLock { $0.superlayer = nil }
    }

    // MARK: Display and layout

    /// Marks the contents as needing to be redrawn by `display()`.
    public func setNeedsDisplay() { state.withLock { $0.needsDisplay = true } }

    /// Whether `setNeedsDisplay()` was called since the last `display()`.
    public func needsDisplay() -> Bool { state.withLock { $0.needsDisplay } }

    /// Redraws now if marked.
    public func displayIfNeeded() {
        if needsDisplay() { display() }
    }

    /// Marks the sublayers as needing layout (also done when the size changes).
    public func setNeedsLayout() { state.withLock { $0.needsLayout = true } }

    /// Whether layout is pending.
    public func needsLayout() -> Bool { state.withLock { $0.needsLayout } }

    /// Lays out now if marked, then the sublayers.
    public func layoutIfNeeded() {
        if needsLayout() {
            state.withLock { $0.needsLayout = false }
            layoutSublayers()
        }
        for layer in sublayers ?? [] { layer.layoutIfNeeded() }
    }

    // MARK: Coordinates

    /// `p` in `layer`'s coordinates, converted to this layer's (nil = the same layer tree's root).
    public func convert(_ p: CGPoint, from layer: CALayer?) -> CGPoint {
        let inRoot = layer?.pointInRoot(p) ?? p
        let origin = pointInRoot(.zero)
        return CGPoint(x: inRoot.x - origin.x, y: inRoot.y - origin.y)
    }

    /// `p` in this layer's coordinates, converted to `layer`'s.
    public func convert(_ p: CGPoint, to layer: CALayer?) -> CGPoint {
        let inRoot = pointInRoot(p)
        guard let layer else { return inRoot }
        let origin = layer.pointInRoot(.zero)
        return CGPoint(x: inRoot.x - origin.x, y: inRoot.y - origin.y)
    }

    /// `r` in `layer`'s coordinates, converted to this layer's.
    public func convert(_ r: CGRect, from layer: CALayer?) -> CGRect {
        CGRect(origin: convert(r.origin, from: layer), size: r.size)
    }

    /// `r` in this layer's coordinates, converted to `layer`'s.
    public func convert(_ r: CGRect, to layer: CALayer?) -> CGRect {
        CGRect(origin: convert(r.origin, to: layer), size: r.size)
    }

    /// Whether `p`, in this layer's coordinates, is inside the bounds.
    public func contains(_ p: CGPoint) -> Bool { bounds.contains(p) }

    /// A point of this layer in the root layer's coordinates.
    private func pointInRoot(_ p: CGPoint) -> CGPoint {
        var point = p
        var layer: CALayer? = self
        while let current = layer, let parent = current.superlayer {
            let frame = current.frame
            let bounds = current.bounds
            point = CGPoint(x: point.x - bounds.minX + frame.minX, y: point.y - bounds.minY + frame.minY)
            layer = parent
        }
        return point
    }
}
