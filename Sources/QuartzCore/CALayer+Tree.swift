import Foundation

extension CALayer {
    var sublayersBacking: [CALayer]? {
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

    var superlayerBacking: CALayer? { state.withLock { $0.superlayer } }

    func addSublayerBacking(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(state.withLock { $0.sublayers?.count ?? 0 }))
    }

    func insertSublayerBacking(_ layer: CALayer, at idx: UInt32) {
        guard layer !== self else { return }
        layer.removeFromSuperlayer()
        layer.state.withLock { $0.superlayer = self }
        state.withLock {
            var list = $0.sublayers ?? []
            list.insert(layer, at: min(Int(idx), list.count))
            $0.sublayers = list
        }
    }

    func insertSublayerBacking(_ layer: CALayer, below sibling: CALayer?) {
        let index = sibling.flatMap { s in state.withLock { $0.sublayers?.firstIndex { $0 === s } } } ?? 0
        insertSublayer(layer, at: UInt32(index))
    }

    func insertSublayerBacking(_ layer: CALayer, above sibling: CALayer?) {
        let count = state.withLock { $0.sublayers?.count ?? 0 }
        let index = sibling.flatMap { s in state.withLock { $0.sublayers?.firstIndex { $0 === s } } }.map { $0 + 1 } ?? count
        insertSublayer(layer, at: UInt32(index))
    }

    func replaceSublayerBacking(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard let index = state.withLock({ $0.sublayers?.firstIndex { $0 === oldLayer } }) else { return }
        oldLayer.removeFromSuperlayer()
        insertSublayer(newLayer, at: UInt32(index))
    }

    func removeFromSuperlayerBacking() {
        guard let parent = superlayer else { return }
        parent.state.withLock { s in
            s.sublayers?.removeAll { $0 === self }
            if s.sublayers?.isEmpty == true { s.sublayers = nil }
        }
        state.withLock { $0.superlayer = nil }
    }

    // MARK: Display and layout

    func setNeedsDisplayBacking() { state.withLock { $0.needsDisplay = true } }

    func needsDisplayBacking() -> Bool { state.withLock { $0.needsDisplay } }

    func displayIfNeededBacking() {
        // The flag clears before display(), so a subclass that draws without calling super
        // stops needing display, as with Core Animation.
        let marked = state.withLock { state in
            defer { state.needsDisplay = false }
            return state.needsDisplay
        }
        if marked { display() }
    }

    func setNeedsLayoutBacking() { state.withLock { $0.needsLayout = true } }

    func needsLayoutBacking() -> Bool { state.withLock { $0.needsLayout } }

    func layoutIfNeededBacking() {
        if needsLayout() {
            state.withLock { $0.needsLayout = false }
            layoutSublayers()
        }
        for layer in sublayers ?? [] { layer.layoutIfNeeded() }
    }

    // MARK: Coordinates

    func convertBacking(_ p: CGPoint, from layer: CALayer?) -> CGPoint {
        let inRoot = layer?.pointInRoot(p) ?? p
        let origin = pointInRoot(.zero)
        return CGPoint(x: inRoot.x - origin.x, y: inRoot.y - origin.y)
    }

    func convertBacking(_ p: CGPoint, to layer: CALayer?) -> CGPoint {
        let inRoot = pointInRoot(p)
        guard let layer else { return inRoot }
        let origin = layer.pointInRoot(.zero)
        return CGPoint(x: inRoot.x - origin.x, y: inRoot.y - origin.y)
    }

    func convertBacking(_ r: CGRect, from layer: CALayer?) -> CGRect {
        CGRect(origin: convert(r.origin, from: layer), size: r.size)
    }

    func convertBacking(_ r: CGRect, to layer: CALayer?) -> CGRect {
        CGRect(origin: convert(r.origin, to: layer), size: r.size)
    }

    func containsBacking(_ p: CGPoint) -> Bool { bounds.contains(p) }

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
